/**
 * `last_hash` computed with node:crypto: byte for byte the hash of shared/src/user-info-hash.ts
 * (SHA-256 hex of the same canonical JSON), synchronously and faster. Web Crypto's digest is
 * asynchronous and costs some tens of microseconds a call; the reconcile hashes every customer of
 * a pass (100,000 in at most 2 s), so it uses this one. user-info-digest.test.ts keeps the two
 * equal.
 *
 * A flat object (every value a string, finite number, boolean, null or undefined: the user info
 * object of the connector's reads) is serialised straight into one string, its sorted keys worked
 * out once per key set: the key set of the previous call is tried first (the reconcile hashes one
 * shape all pass long), checked without allocating (the object's key count, and each remembered
 * key present), so no key list is built or looked up per object. Anything else goes through
 * canonicalJson itself.
 */
import { hash } from "node:crypto";
import { canonicalJson } from "@service/shared/user-info-hash";

/** A key set: the hashed keys sorted, each with its `"key":` text; `count` counts `password` too. */
interface KeySet {
  keys: string[];
  prefixes: string[];
  /** own enumerable keys of an object of this set (the hashed ones, and `password` when present) */
  count: number;
}

/** The key set of the previous flat object. */
let lastKeySet: KeySet | null = null;

/** Characters JSON.stringify writes escaped (quote, backslash, controls; lone surrogates): none means `"text"` as it is. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON text of a string, as JSON.stringify writes it. */
const quote = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

/** JSON text of a flat value, undefined for an absent one, or null when the value is not flat. */
function flatValue(v: unknown): string | undefined | null {
  switch (typeof v) {
    case "string":
      return quote(v);
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return Number.isFinite(v) ? JSON.stringify(v) : null;
    case "undefined":
      return undefined;
    default:
      return v === null ? "null" : null;
  }
}

/** canonicalJson of `value` when it has exactly the keys of `set` and is flat, else null. */
function withKeySet(value: Record<string, unknown>, set: KeySet): string | null {
  let count = 0;
  for (const _key in value) count++;
  if (count !== set.count) return null;
  let text = "";
  for (let i = 0; i < set.keys.length; i++) {
    const key = set.keys[i]!;
    const json = flatValue(value[key]);
    if (json === null) return null;
    if (json === undefined) {
      if (!(key in value)) return null; // another key instead of this one
      continue;
    }
    text += (text === "" ? "{" : ",") + set.prefixes[i]! + json;
  }
  if (set.count !== set.keys.length && !("password" in value)) return null;
  return text === "" ? "{}" : `${text}}`;
}

/** canonicalJson of a flat object, or null when a value is not flat. */
function flatCanonicalJson(value: Record<string, unknown>): string | null {
  if (lastKeySet) {
    const text = withKeySet(value, lastKeySet);
    if (text !== null) return text;
  }
  const all = Object.keys(value);
  const keys = all.filter((k) => k !== "password").sort();
  lastKeySet = { keys, prefixes: keys.map((k) => `${JSON.stringify(k)}:`), count: all.length };
  return withKeySet(value, lastKeySet);
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
