/**
 * Where every entry point finds SERVICE_SECRET_KEY (npm start, migrate, sync, admin, demo, the
 * core API on Node and on Deno, the connector): the environment's SERVICE_SECRET_KEY when set,
 * else the key kept in the secret-key file. `npm start` and `npm run migrate` generate that file
 * on first use (mode 600, git-ignored), so every later command of the checkout seals and opens
 * secrets under the same key. The file is `.secret-key` at the repository root, or the path in
 * SERVICE_SECRET_KEY_FILE.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The default file: `.secret-key` at the repository root. */
export const SECRET_KEY_FILE = fileURLToPath(new URL("../../../.secret-key", import.meta.url));

type Env = Readonly<Record<string, string | undefined>>;

/** The variables read here (besides SERVICE_SECRET_KEY, which the services' configurations declare). */
export const SECRET_KEY_FILE_VARIABLES = ["SERVICE_SECRET_KEY_FILE"] as const;

/** The secret-key file of `env`: SERVICE_SECRET_KEY_FILE when set, else SECRET_KEY_FILE. */
export function secretKeyFileOf(env: Env): string {
  return env.SERVICE_SECRET_KEY_FILE || SECRET_KEY_FILE;
}

/** The key in `file` (trimmed), or undefined when there is no such file or it is empty. */
export function readSecretKeyFile(file: string = SECRET_KEY_FILE): string | undefined {
  if (!existsSync(file)) return undefined;
  return readFileSync(file, "utf8").trim() || undefined;
}

/** The key in `file`, generated there (32 random bytes, base64; mode 600) when there is none. */
export function secretKeyFileOrNew(file: string = SECRET_KEY_FILE): string {
  const known = readSecretKeyFile(file);
  if (known !== undefined) return known;
  const key = randomBytes(32).toString("base64");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * `env` with SERVICE_SECRET_KEY filled in from the secret-key file when `env` has none (unset or
 * empty); `env` itself when it has one or there is no file. Nothing is generated here.
 */
export function withSecretKeyFile<E extends Env>(env: E): E {
  if (env.SERVICE_SECRET_KEY) return env;
  const key = readSecretKeyFile(secretKeyFileOf(env));
  return key === undefined ? env : { ...env, SERVICE_SECRET_KEY: key };
}
