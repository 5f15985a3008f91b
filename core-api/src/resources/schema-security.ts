/**
 * The `security` of the schema document (OpenAPI 3.1 "Security Requirement"), from the access
 * table (auth/access-table.ts): every operation lists exactly the credentials of the caller kinds
 * its row allows, so the document cannot promise an access the engine refuses.
 *
 * Schemes (`components.securitySchemes`):
 * - admin session: `sessionUserId` and `sessionKey` together (two headers);
 * - privileged token: `bearer` with the role its scope must give on the chain (`chain` or
 *   `read_businesses`: OpenAPI 3.1 lets any scheme name required roles);
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
  bearer: { type: "http", scheme: "bearer", description: "Privileged access: `{access token id}:{token_secret}`; roles name the scope it needs on the chain (`chain`, `read_businesses`)." },
  appHostname: { type: "apiKey", in: "header", name: "X-Service-App-Hostname", description: "Shopper requests: the app, which decides the chain." },
  shopperToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Shopper access token of an identity provider the app's chain trusts (with X-Service-App-Hostname)." },
};

/** The security requirements that let a caller of `kind` in. */
const REQUIREMENTS: Record<CallerKind, JsonSchema[]> = {
  admin: [{ sessionUserId: [], sessionKey: [] }],
  chain_scope: [{ bearer: ["chain"] }],
  read_businesses: [{ bearer: ["read_businesses"] }],
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

/** The security of an operation that takes any session (admin, or shopper through its app): logout. */
export function sessionSecurity(): JsonSchema[] {
  return [...REQUIREMENTS.admin, REQUIREMENTS.end_user[0]!];
}
