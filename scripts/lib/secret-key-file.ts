/**
 * The SERVICE_SECRET_KEY of a checkout run with `npm start`: kept in `.secret-key` (mode 600,
 * git-ignored), generated there on first start, so that later starts and the operator CLI seal
 * and open secrets under the same key. An explicit SERVICE_SECRET_KEY always wins.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The file, at the repository root. */
export const SECRET_KEY_FILE = fileURLToPath(new URL("../../.secret-key", import.meta.url));

/** The key in `.secret-key`, or undefined when there is no such file. */
export function readSecretKeyFile(file: string = SECRET_KEY_FILE): string | undefined {
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

/** The key in `.secret-key`, generated there (32 random bytes, base64) when there is none. */
export function secretKeyFileOrNew(file: string = SECRET_KEY_FILE): string {
  const known = readSecretKeyFile(file);
  if (known !== undefined) return known;
  const key = randomBytes(32).toString("base64");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
