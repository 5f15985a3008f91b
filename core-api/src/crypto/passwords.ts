/**
 * Password hashing for platform users: argon2id (handbook, "secrets at rest"), stored as the PHC
 * string `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` (OWASP's minimum argon2id parameters).
 *
 * Two implementations of the one format, chosen once when the module loads: @node-rs/argon2
 * (native, runs on libuv's thread pool: a login never blocks the event loop and several hash at
 * once on several cores) wherever it loads, which is Node; hash-wasm (WebAssembly, on the event
 * loop) where it does not, which is Deno without --allow-ffi. A hash made by either verifies with
 * the other (crypto/passwords.test.ts).
 */
import type { Algorithm } from "@node-rs/argon2";
import { argon2id, argon2Verify } from "hash-wasm";

const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19456, hashLength: 32 } as const;
/** @node-rs/argon2's `Algorithm.Argon2id` (declared as a const enum, which this build cannot import). */
const ARGON2ID = 2 as Algorithm.Argon2id;

/** One implementation of the PHC argon2id hashing above. */
export interface PasswordHasher {
  name: "native" | "wasm";
  /** a PHC string with a fresh 16-byte random salt */
  hash(password: string): Promise<string>;
  /** whether `password` matches the PHC string `hash`; throws for a malformed one */
  verify(password: string, hash: string): Promise<boolean>;
}

/** hash-wasm: WebAssembly, runs everywhere. */
export const WASM_HASHER: PasswordHasher = {
  name: "wasm",
  hash: (password) => argon2id({ ...PARAMS, password, salt: crypto.getRandomValues(new Uint8Array(16)), outputType: "encoded" }),
  verify: (password, hash) => argon2Verify({ password, hash }),
};

/** @node-rs/argon2 when its native binding loads on this runtime; null otherwise. */
export const NATIVE_HASHER: PasswordHasher | null = await import("@node-rs/argon2").then(
  (argon2): PasswordHasher => ({
    name: "native",
    hash: (password) =>
      argon2.hash(password, {
        algorithm: ARGON2ID,
        memoryCost: PARAMS.memorySize,
        timeCost: PARAMS.iterations,
        parallelism: PARAMS.parallelism,
        outputLen: PARAMS.hashLength,
      }),
    verify: (password, hash) => argon2.verify(hash, password),
  }),
  () => null,
);

/** The implementation this process uses. */
export const PASSWORD_HASHER: PasswordHasher = NATIVE_HASHER ?? WASM_HASHER;

/** Hashes `password` with a fresh 16-byte random salt; returns the PHC string. */
export async function hashPassword(password: string): Promise<string> {
  return PASSWORD_HASHER.hash(password);
}

/** Whether `password` matches the PHC string `hash`; false for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await PASSWORD_HASHER.verify(password, hash);
  } catch {
    return false;
  }
}
