/**
 * Access-token scopes (spec, "AccessToken": Scope; "Authentication": Privileged). A scope is a
 * comma-separated list of `key:value` fields, fixed when the token is created. Pure functions:
 * no database.
 */
import { ServiceError } from "../http/service-error.ts";

/** The scope keys a token created through the Resources API may carry, each bound to one chain. */
export const CREATABLE_SCOPE_KEYS = ["chain", "read_businesses"] as const;
export type CreatableScopeKey = (typeof CREATABLE_SCOPE_KEYS)[number];

/** One `key:value` field of a stored scope. */
export interface ScopeField {
  key: string;
  value: string;
}

/**
 * Checks the scope of a token being created through POST /resources/access_token: every field
 * must be `chain:{chainId}` or `read_businesses:{chainId}` with `chainId` exactly as the numeric
 * id of X-Service-Chain-ID (no sign, no leading zeros). Blanks around a field are ignored and a
 * field given twice counts once.
 * @param scope the `scope` property as sent
 * @param chainId the id from X-Service-Chain-ID
 * @returns the scope to store: its fields in the order first given, joined by ","
 *   (for example `chain:7,read_businesses:7`)
 * @throws ServiceError access_denied (424, HTTP 403) for an empty scope, an empty or malformed
 *   field, another key, or another chain; cross-chain scopes are provisioned by the operator only
 * @example requestedScope(" read_businesses:7 ", 7) // "read_businesses:7"
 */
export function requestedScope(scope: string, chainId: number): string {
  const fields: string[] = [];
  for (const raw of scope.split(",")) {
    const text = raw.trim();
    const sep = text.indexOf(":");
    const key = sep < 0 ? text : text.slice(0, sep);
    const value = sep < 0 ? "" : text.slice(sep + 1);
    if (!(CREATABLE_SCOPE_KEYS as readonly string[]).includes(key) || value !== String(chainId)) {
      throw new ServiceError(
        "access_denied",
        text === ""
          ? "The scope has an empty field; give chain:{chain_id} and/or read_businesses:{chain_id}."
          : `Scope field "${text.slice(0, 64)}" is not allowed: only chain:${chainId} and read_businesses:${chainId} can be created here.`,
      );
    }
    if (!fields.includes(text)) fields.push(text);
  }
  return fields.join(",");
}

/**
 * Reads a stored scope (which may hold operator-provisioned fields of any key) into its fields.
 * Fields without a `:` or with an empty key are dropped: they grant nothing.
 * @example parseScopeFields("chain:7,read_businesses:8") // [{key:"chain",value:"7"}, {key:"read_businesses",value:"8"}]
 */
export function parseScopeFields(stored: string): ScopeField[] {
  const out: ScopeField[] = [];
  for (const raw of stored.split(",")) {
    const text = raw.trim();
    const sep = text.indexOf(":");
    if (sep <= 0) continue;
    out.push({ key: text.slice(0, sep), value: text.slice(sep + 1) });
  }
  return out;
}
