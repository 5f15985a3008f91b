/**
 * The canonical `last_hash` of a user info object (spec, "Webshop connector endpoints": the
 * customer's `extension_attributes.service_data.last_hash`). The only implementation: the
 * connector's `update` and its reconcile both hash through it. It must stay byte-for-byte stable:
 * changing it makes every stored hash look like a change, and the reconcile would send every
 * customer again. user-info-hash.test.ts pins it with fixed vectors.
 *
 * Definition:
 *  1. Start from the user info object (user-info.ts: the one declaration of get-user's `user`,
 *     the connector's `update` input), whole or the part of it one side holds.
 *  2. Drop the key `password` at every depth (a secret must never end up in a stored, unsalted
 *     hash) and every key whose value is `undefined` (absent and undefined are the same thing).
 *  3. Serialise as canonical JSON: object keys sorted by UTF-16 code unit order (`Array.sort()`
 *     default), no whitespace, arrays in their order (an undefined item as null), strings, numbers,
 *     booleans and null exactly as `JSON.stringify` writes them. `null` is kept (a cleared value
 *     differs from an absent one).
 *  4. `last_hash` = lowercase hex SHA-256 of the UTF-8 bytes of that text (64 characters).
 *
 * Example: `{"b":1,"a":{"d":null,"c":"x"},"password":"p"}` -> `{"a":{"c":"x","d":null},"b":1}`.
 *
 * Synchronous, with node:crypto's one-shot hash: the reconcile hashes every customer of a pass
 * (100,000 in well under its 2 s), where Web Crypto's asynchronous digest costs tens of
 * microseconds a call.
 */
import { hash } from "node:crypto";
import type { UserInfo } from "../user-info.ts";

/** The key never hashed, at any depth: a secret. */
const EXCLUDED_KEY = "password";

/** Characters JSON.stringify writes escaped (quote, backslash, controls; lone surrogates). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON text of a string, as JSON.stringify writes it (without calling it when nothing needs escaping). */
const quote = (text: string): string => (NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`);

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
      return quote(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("canonicalJson: non-finite number");
      return JSON.stringify(value);
    case "object":
      if (Array.isArray(value)) return `[${value.map((v: unknown) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
      return objectJson(value as Record<string, unknown>, Object.keys(value).sort());
    default:
      throw new TypeError(`canonicalJson: cannot serialise a ${typeof value}`);
  }
}

/**
 * Canonical JSON of an object whose own keys, sorted, are `sortedKeys` (password and undefined
 * values skipped here); `prefixes` (optional) are the keys' `"key":` texts, worked out before.
 */
function objectJson(record: Record<string, unknown>, sortedKeys: readonly string[], prefixes?: readonly string[]): string {
  let text = "";
  for (let i = 0; i < sortedKeys.length; i++) {
    const key = sortedKeys[i]!;
    const v = record[key];
    if (v === undefined || key === EXCLUDED_KEY) continue;
    text += `${text === "" ? "{" : ","}${prefixes ? prefixes[i] : `${quote(key)}:`}${canonicalJson(v)}`;
  }
  return text === "" ? "{}" : `${text}}`;
}

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text` (the one-shot hash: about twice as fast as createHash for short texts). */
const sha256Hex = (text: string): string => hash("sha256", text, "hex");

/**
 * What is hashed: a user info object (UserInfo) or the part of it a side holds; keys it holds
 * besides the declared ones, such as the webshop customer id, are hashed too.
 */
export type HashedUserInfo = Partial<UserInfo> | object;

/**
 * The `last_hash` of a user info object: lowercase hex SHA-256 of {@link canonicalJson}.
 * @returns 64 lowercase hex characters
 * @throws TypeError for values JSON cannot represent (as canonicalJson)
 * @example userInfoHash({ first_name: "Ann" }) // sha256 of '{"first_name":"Ann"}'
 */
export function userInfoHash(userInfo: HashedUserInfo): string {
  return sha256Hex(canonicalJson(userInfo));
}

/**
 * A userInfoHash for hashing many objects of one shape (the reconcile: every customer of a pass).
 * It remembers the sorted keys of the last object it hashed (and their JSON texts) and reuses them
 * while the next object has exactly those own keys (checked by count and presence, without
 * building a key list), so a pass sorts and quotes its keys once instead of once per customer.
 * The hashes are userInfoHash's.
 * @returns a function of a user info object to its `last_hash` (throws as userInfoHash)
 */
export function userInfoHasher(): (userInfo: HashedUserInfo) => string {
  let sortedKeys: string[] = [];
  let prefixes: string[] = [];
  return (userInfo) => {
    if (Array.isArray(userInfo)) return userInfoHash(userInfo);
    const record = userInfo as Record<string, unknown>;
    if (!hasExactly(record, sortedKeys)) {
      sortedKeys = Object.keys(record).sort();
      prefixes = sortedKeys.map((key) => `${quote(key)}:`);
    }
    return sha256Hex(objectJson(record, sortedKeys, prefixes));
  };
}

/** Whether `record`'s own enumerable keys are exactly `keys` (a plain data object: nothing inherited is enumerable). */
function hasExactly(record: Record<string, unknown>, keys: readonly string[]): boolean {
  let count = 0;
  for (const _key in record) count++;
  if (count !== keys.length) return false;
  for (const key of keys) if (!Object.hasOwn(record, key)) return false;
  return true;
}
