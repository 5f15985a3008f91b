/**
 * The signature of every delivery the core API sends (handbook, "Events"), as Stripe signs its
 * webhooks: header `X-Service-Signature: t=<unix seconds>,v1=<hex>` where `<hex>` is the
 * HMAC-SHA256, keyed with the webhook's signing secret, of `"<t>.<body>"` (the raw request body,
 * byte for byte). A receiver recomputes it with the secret it was given, compares in constant
 * time, and refuses a timestamp too far from its clock (a replayed old request).
 *
 * Pure computation over Web Crypto, so the core API (Node and Deno), the demo's receiver and the
 * tests share it. Receivers should also drop a second request with an Idempotency-Key they have
 * already handled: delivery is at least once.
 *
 * @example
 *   const header = await signPayload("whsec_...", body, 1767225600);
 *   // "t=1767225600,v1=5f0c..."
 *   await verifySignature(header, body, "whsec_...", { now: new Date() }); // true or false
 */

/** The header carrying the signature. */
export const SIGNATURE_HEADER = "X-Service-Signature";
/** The header carrying the delivery's idempotency key (the same on every attempt). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** The header naming the event type, for example `phone_number_verification`. */
export const EVENT_HEADER = "X-Service-Event";
/** How far (seconds) a signature's timestamp may lie from the receiver's clock by default. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

/**
 * Signs `body` at time `t`.
 * @param secret the webhook's signing secret (UTF-8)
 * @param body the exact request body
 * @param t unix time in whole seconds
 * @returns the header value `t=<t>,v1=<64 hex>`
 */
export async function signPayload(secret: string, body: string, t: number): Promise<string> {
  return `t=${t},v1=${await hmacHex(secret, `${t}.${body}`)}`;
}

/**
 * Checks a signature header against `body` and `secret`.
 * @param header the X-Service-Signature value (several `v1=` entries are allowed: any may match)
 * @param opts.now the receiver's clock; opts.toleranceSeconds how far t may lie from it (default 300)
 * @returns whether one v1 signature matches and t lies within the tolerance; false for a
 *   malformed header (never throws for bad input)
 */
export async function verifySignature(
  header: string | null | undefined,
  body: string,
  secret: string,
  opts: { now?: Date; toleranceSeconds?: number } = {},
): Promise<boolean> {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - parsed.t) > (opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = await hmacHex(secret, `${parsed.t}.${body}`);
  let match = false;
  for (const v1 of parsed.v1) match = constantTimeEqual(v1, expected) || match;
  return match;
}

/**
 * Reads `t=<digits>,v1=<hex>[,v1=<hex>...]`.
 * @returns the timestamp and the v1 signatures, or null when the header is malformed
 */
export function parseSignatureHeader(header: string | null | undefined): { t: number; v1: string[] } | null {
  if (!header) return null;
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const [key, value, extra] = part.trim().split("=");
    if (value === undefined || extra !== undefined) return null;
    if (key === "t" && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) v1.push(value);
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  let hex = "";
  for (const b of mac) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** Equal-length hex strings compared without an early exit. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
