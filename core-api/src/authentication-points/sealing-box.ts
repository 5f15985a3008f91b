/**
 * The core API's secret box (shared/src/secret-box.ts) under its SERVICE_SECRET_KEY, derived once
 * per key and kept: HKDF runs when the first secret is sealed or opened, not on every request.
 */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";

const boxes = new Map<string, Promise<SecretBox>>();

/**
 * The secret box of `secretKey` (config.secretKey).
 * @throws Error when the key is missing (the entries refuse to start without SERVICE_SECRET_KEY,
 *   so this is a programming error); RangeError when it is shorter than 32 characters
 */
export function secretBoxOf(secretKey: string | undefined): Promise<SecretBox> {
  if (secretKey === undefined) throw new Error("SERVICE_SECRET_KEY is not configured: secrets cannot be sealed or opened");
  let box = boxes.get(secretKey);
  if (!box) {
    box = openSecretBox(secretKey);
    boxes.set(secretKey, box);
    // A key that fails to derive is not kept, so the next call reports it again.
    box.catch(() => boxes.delete(secretKey));
  }
  return box;
}
