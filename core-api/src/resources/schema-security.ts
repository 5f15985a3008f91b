/**
 * The `security` of the schema document (OpenAPI 3.1 "Security Requirement"), from the access
 * table (auth/access-table.ts): every operation lists exactly the credentials of the caller kinds
 * its row allows, so the document cannot promise an access the engine refuses.
 *
 * Schemes (`components.securitySchemes`):
 * - admin session: `sessionUserId` and `sessionKey` together (two headers);
 * - privileged token: `chainToken` (its scope gives `chain:{id}`) or `readBusinessesToken` (its
 *   scope gives `read_businesses:{id}`): one bearer scheme per scope kind, since linters accept
 *   named scopes only on OAuth 2 schemes, and a generated client can pick the one it holds;
 * - shopper: `appHostname` with the session headers, or `appHostname` with `shopperToken` (a JWT).
 * The admin access level an operation needs is `x-service-access-level` on the operation, and any
 * further levels it needs `x-service-also-access-levels` (delete-campaign: `campaign`).
 */
import type { AccessRule, CallerKind } from "../auth/access-table.ts";
import type { JsonSchema } from "./schema-components.ts";

/** `components.securitySchemes` of the document. */
export const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  sessionUserId: { type: "apiKey", in: "header", name: "X-Service-Session-User-ID", description: "Session (admin, or shopper with X-Service-App-Hostname): user id, with X-Service-Session-Key." },
  sessionKey: { type: "apiKey", in: "header", name: "X-Service-Session-Key", description: "Session key from POST /auth/login." },
  chainToken: { type: "http", scheme: "bearer", description: "Privileged access token `{access token id}:{token_secret}` whose scope has `chain:{chain id}` for the request's chain." },
  readBusinessesToken: { type: "http", scheme: "bearer", description: "Privileged access token `{access token id}:{token_secret}` whose scope has `read_businesses:{chain id}` (or `chain:{chain id}`)." },
  appHostname: { type: "apiKey", in: "header", name: "X-Service-App-Hostname", description: "Shopper requests: the app, which decides the chain." },
  shopperToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Shopper access token of an identity provider the app's chain trusts (with X-Service-App-Hostname)." },
};

/** The security requirements that let a caller of `kind` in. */
const REQUIREMENTS: Record<CallerKind, JsonSchema[]> = {
  admin: [{ sessionUserId: [], sessionKey: [] }],
  chain_scope: [{ chainToken: [] }],
  read_businesses: [{ readBusinessesToken: [] }],
  end_user: [
    { appHostname: [], sessionUserId: [], sessionKey: [] },
    { appHostname: [], shopperToken: [] },
  ],
};

/**
 * The `security` and `x-service-access-level` of an operation governed by `rule`.
 * @returns the fields to spread into the operation object
 */
export function operationSecurity(rule: AccessRule): { security: JsonSchema[]; "x-service-access-level": string; "x-service-also-access-levels"?: string[] } {
  return {
    security: rule.callers.flatMap((kind) => REQUIREMENTS[kind]),
    "x-service-access-level": rule.level,
    ...(rule.alsoLevels && rule.alsoLevels.length > 0 ? { "x-service-also-access-levels": [...rule.alsoLevels] } : {}),
  };
}

/** Who each caller kind is, in a description's words. */
const CALLER_WORDS: Record<CallerKind, (level: string) => string> = {
  admin: (level) => `an admin session with the \`${level}\` access level on the chain`,
  chain_scope: () => "a privileged access token whose scope has `chain:{id}` for the chain",
  read_businesses: () => "a privileged access token with `read_businesses:{id}` (or `chain:{id}`) for the chain",
  end_user: () => "a shopper, through an app of the chain (X-Service-App-Hostname)",
};

/**
 * The sentence of an operation's description that says who may call it, from its access-table row.
 * @example accessSentence({ callers: ["admin", "chain_scope"], level: "write" })
 *   // "Allowed to an admin session with the `write` access level on the chain, or a privileged ..."
 */
export function accessSentence(rule: AccessRule): string {
  const levels = [rule.level, ...(rule.alsoLevels ?? [])].join("` and `");
  const who = rule.callers.map((kind) => CALLER_WORDS[kind](levels));
  return `Allowed to ${who.join(", or ")}; anyone else is refused.`;
}

/** The security of an operation that takes any session (admin, or shopper through its app): logout. */
export function sessionSecurity(): JsonSchema[] {
  return [...REQUIREMENTS.admin, REQUIREMENTS.end_user[0]!];
}
