/**
 * `last_hash` computed with node:crypto: byte for byte the hash of shared/src/user-info-hash.ts
 * (SHA-256 hex of the same canonical JSON), synchronously. Web Crypto's digest is asynchronous
 * and costs some tens of microseconds a call; the reconcile hashes every customer of a pass
 * (100,000 in at most 2 s), so it uses this one. user-info-digest.test.ts keeps the two equal.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "@service/shared/user-info-hash";

/**
 * The `last_hash` of a user info object (see userInfoHash of @service/shared/user-info-hash).
 * @returns 64 lowercase hex characters
 */
export function userInfoDigest(userInfo: object): string {
  return createHash("sha256").update(canonicalJson(userInfo), "utf8").digest("hex");
}
