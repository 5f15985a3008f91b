/**
 * Secrets a service must use again later (webhook signing secrets and provider credentials, the
 * connector's integration token, the core API access token the connector calls with): stored
 * encrypted with AES-256-GCM under SERVICE_SECRET_KEY (handbook, "Events"). Web Crypto only, so
 * the core API runs it on Deno too.
 *
 * A sealed value is `v1.<base64url of 12-byte IV, ciphertext and 16-byte tag>`. Each value is
 * sealed for a purpose (for example `webhook.secret`), bound in as additional authenticated data:
 * a value copied into another column does not open there.
 */

/** The shortest SERVICE_SECRET_KEY accepted (the generated one is 44 base64 characters). */
export const MIN_SECRET_KEY_LENGTH = 32;

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A sealed value that does not open: wrong key, wrong purpose, or altered. */
export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

/** Seals and opens secrets under one SERVICE_SECRET_KEY. */
export interface SecretBox {
  /**
   * @param plain the secret (any UTF-8 text, "" included)
   * @param purpose what it is, bound in (for example `webhook.secret`)
   * @returns `v1.<base64url>`, a fresh IV each time
   */
  seal(plain: string, purpose: string): Promise<string>;
  /**
   * @param sealed a value from `seal`
   * @param purpose the purpose it was sealed for
   * @throws SecretBoxError when it was sealed under another key or purpose, altered or malformed
   */
  open(sealed: string, purpose: string): Promise<string>;
}

/**
 * The secret box of `serviceSecretKey`, opened on first use and kept: a service that holds one
 * per process opens it only when a request needs it (most never do).
 * @param serviceSecretKey SERVICE_SECRET_KEY; undefined when the service runs without one
 * @returns a function answering the box; it rejects when no key is configured, and as openSecretBox
 *   rejects for a key too short
 */
export function lazySecretBox(serviceSecretKey: string | undefined): () => Promise<SecretBox> {
  let box: Promise<SecretBox> | null = null;
  return () => {
    if (!serviceSecretKey) return Promise.reject(new Error("SERVICE_SECRET_KEY is not set: secrets for outbound calls cannot be kept"));
    return (box ??= openSecretBox(serviceSecretKey));
  };
}

/**
 * The secret box of `serviceSecretKey`: an AES-256-GCM key derived with HKDF-SHA256.
 * @param serviceSecretKey SERVICE_SECRET_KEY, at least MIN_SECRET_KEY_LENGTH characters
 * @throws RangeError when the key is shorter
 */
export async function openSecretBox(serviceSecretKey: string): Promise<SecretBox> {
  if (serviceSecretKey.length < MIN_SECRET_KEY_LENGTH) {
    throw new RangeError(`SERVICE_SECRET_KEY must be at least ${MIN_SECRET_KEY_LENGTH} characters`);
  }
  const material = await crypto.subtle.importKey("raw", encoder.encode(serviceSecretKey), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("service-platform secret box v1") },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
  return {
    async seal(plain, purpose) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(purpose) }, key, encoder.encode(plain)),
      );
      const out = new Uint8Array(IV_BYTES + sealed.length);
      out.set(iv);
      out.set(sealed, IV_BYTES);
      return `${VERSION}.${toBase64Url(out)}`;
    },
    async open(sealed, purpose) {
      const [version, body, extra] = sealed.split(".");
      const bytes = version === VERSION && body !== undefined && extra === undefined ? fromBase64Url(body) : null;
      if (!bytes || bytes.length < IV_BYTES + 16) throw new SecretBoxError("not a sealed secret");
      try {
        const plain = await crypto.subtle.decrypt(
          { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES), additionalData: encoder.encode(purpose) },
          key,
          bytes.subarray(IV_BYTES),
        );
        return decoder.decode(plain);
      } catch {
        throw new SecretBoxError(`the sealed secret does not open (another SERVICE_SECRET_KEY, another purpose than ${purpose}, or altered)`);
      }
    },
  };
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const s = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
