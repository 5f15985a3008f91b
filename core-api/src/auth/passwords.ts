/**
 * Password hashing for platform users: argon2id (handbook, "secrets at rest"), through hash-wasm
 * (WebAssembly, so it runs on Node and Deno alike). Stored as the PHC string
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` (OWASP's minimum argon2id parameters).
 */
import { argon2id, argon2Verify } from "hash-wasm";

const PARAMS = { parallelism: 1, iterations: 2, memorySize: 19456, hashLength: 32 } as const;

/** Hashes `password` with a fresh 16-byte random salt; returns the PHC string. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return argon2id({ ...PARAMS, password, salt, outputType: "encoded" });
}

/** Whether `password` matches the PHC string `hash`; false for a malformed hash. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  try {
    return await argon2Verify({ password, hash });
  } catch {
    return false;
  }
}
