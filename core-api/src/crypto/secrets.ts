/**
 * Secrets handed to clients (session keys, token secrets): random, stored only as SHA-256 hex,
 * compared in constant time (handbook, "secrets at rest"). Web Crypto for randomness; the hash is
 * node:crypto's createHash, which Deno provides too: synchronous, where Web Crypto's digest is a
 * promise settled from a worker thread, a hop every authenticated request paid.
 */
import * as nodeCrypto from "node:crypto";

/** node:crypto's one-shot `hash` (Node 20.12+): no Hash object per call; absent on older runtimes. */
const oneShotHash = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;

/** A new secret: 32 random bytes as 64 lowercase hex characters. */
export function newSecret(): string {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** SHA-256 of `secret` (UTF-8) as 64 lowercase hex characters. */
export function sha256Hex(secret: string): string {
  return oneShotHash ? oneShotHash("sha256", secret, "hex") : nodeCrypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time equality of two strings (time depends only on their lengths). */
export function timingSafeEqualString(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  let diff = ea.length ^ eb.length;
  const n = Math.max(ea.length, eb.length);
  for (let i = 0; i < n; i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}

function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}
