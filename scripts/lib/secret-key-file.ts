/**
 * The SERVICE_SECRET_KEY of a checkout run with `npm start`: the one helper every entry point
 * uses lives in the shared package (shared/src/node/secret-key-file.ts); the scripts import it here.
 */
export { readSecretKeyFile, SECRET_KEY_FILE, secretKeyFileOf, secretKeyFileOrNew, withSecretKeyFile } from "@service/shared/node";
