/**
 * `last_hash` computed with node:crypto: byte for byte the hash of shared/src/user-info-hash.ts
 * (SHA-256 hex of the same canonical JSON), synchronously and faster. Web Crypto's digest is
 * asynchronous and costs some tens of microseconds a call; the reconcile hashes every customer of
 * a pass (100,000 in at most 2 s), so it uses this one. user-info-digest.test.ts keeps the two
 * equal.
 *
 * A flat object (every value a string, finite number, boolean, null or undefined: the user info
 * object of the connector's reads) is serialised with its sorted keys worked out once per key set;
 * anything else goes through canonicalJson itself.
 */
import { hash } from "node:crypto";
import { canonicalJson } from "@service/shared/user-info-hash";

/** Per key set (keys in their own order, joined): the hashed keys sorted, each with its `"key":` prefix. */
const sortedKeys = new Map<string, Array<[key: string, prefix: string]>>();
/** Key sets remembered at most (the reconcile sees one). */
const MAX_KEY_SETS = 64;

/** canonicalJson of a flat object, or null when a value is not flat. */
function flatCanonicalJson(value: Record<string, unknown>): string | null {
  const keys = Object.keys(value);
  const id = keys.join("\u0000");
  let sorted = sortedKeys.get(id);
  if (!sorted) {
    sorted = keys.filter((k) => k !== "password").sort().map((k) => [k, `${JSON.stringify(k)}:`]);
    if (sortedKeys.size >= MAX_KEY_SETS) sortedKeys.clear();
    sortedKeys.set(id, sorted);
  }
  const parts: string[] = [];
  for (const [key, prefix] of sorted) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v === "string") parts.push(prefix + JSON.stringify(v));
    else if (v === null) parts.push(`${prefix}null`);
    else if (typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) parts.push(prefix + JSON.stringify(v));
    else return null;
  }
  return `{${parts.join(",")}}`;
}

/**
 * The `last_hash` of a user info object (see userInfoHash of @service/shared/user-info-hash).
 * @returns 64 lowercase hex characters
 * @throws TypeError for values JSON cannot represent (as canonicalJson)
 */
export function userInfoDigest(userInfo: object): string {
  const text = (!Array.isArray(userInfo) && flatCanonicalJson(userInfo as Record<string, unknown>)) || canonicalJson(userInfo);
  // One-shot hash (UTF-8 for a string): about twice as fast as createHash for short texts.
  return hash("sha256", text, "hex");
}
