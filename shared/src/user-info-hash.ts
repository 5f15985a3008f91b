/**
 * The canonical `last_hash` of a user info object (spec, "Webshop connector endpoints": the
 * customer's `extension_attributes.service_data.last_hash`). Used by both services, so it must
 * stay byte-for-byte stable: changing it makes every stored hash look like a change.
 *
 * Definition:
 *  1. Start from the user info object (user-info.ts: the one declaration of get-user's `user`,
 *     the connector's `update` input), whole or the part of it one side holds.
 *  2. Drop the key `password` at every depth (a secret must never end up in a stored, unsalted
 *     hash) and every key whose value is `undefined` (absent and undefined are the same thing).
 *  3. Serialise as canonical JSON: object keys sorted by UTF-16 code unit order (`Array.sort()`
 *     default), no whitespace, arrays in their order, strings/numbers/booleans/null exactly as
 *     `JSON.stringify` writes them. `null` is kept (a cleared value differs from an absent one).
 *  4. `last_hash` = lowercase hex SHA-256 of the UTF-8 bytes of that text (64 characters).
 *
 * Example: `{"b":1,"a":{"d":null,"c":"x"},"password":"p"}` -> `{"a":{"c":"x","d":null},"b":1}`.
 *
 * Uses Web Crypto only (no Node imports), so it runs on Node, Deno and in workers.
 */

import type { UserInfo } from "./user-info.ts";

/** Keys never hashed: secrets. */
const EXCLUDED_KEYS = new Set(["password"]);

/**
 * Canonical JSON text of a JSON-like value (see the module comment for the rules).
 * @param value plain data: objects, arrays, strings, finite numbers, booleans, null
 * @returns the canonical text
 * @throws TypeError for values JSON cannot represent (functions, symbols, bigint, NaN/Infinity)
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) {
        // JSON.stringify writes undefined array items as null; do the same.
        return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((k) => record[k] !== undefined && !EXCLUDED_KEYS.has(k))
        .sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
    }
    default:
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

/**
 * The `last_hash` of a user info object: lowercase hex SHA-256 of {@link canonicalJson}.
 * @param userInfo a user info object or the part of it a side holds (keys it holds besides the
 *   declared ones, such as the webshop customer id, are hashed too)
 * @returns 64 lowercase hex characters
 * @example await userInfoHash({ first_name: "Ann" }) // sha256 of '{"first_name":"Ann"}'
 */
export async function userInfoHash(userInfo: Partial<UserInfo> & { password?: string | null }): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(userInfo));
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
