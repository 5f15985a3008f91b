/**
 * Phone-number verification by SMS one-time code (spec, "Events": `phone_number_verification`;
 * "Versioning" 1.6.3; handbook, "Events"), with the chain setting `verify_phone_numbers` and the
 * chain's limits (users/phone-verification-limits.ts).
 *
 * Issuing: a signup or phone change (add-user, alter-user) that leaves the user with a validated
 * number (status 2: from 1.6.3, a valid number given in the request, not already verified) makes a
 * six-digit code, in the transaction of the user write, when the chain's send limits allow it:
 * - only its keyed hash is stored (HMAC-SHA256 under a key derived from SERVICE_SECRET_KEY, bound
 *   to the user and the number), valid 10 minutes for 5 tries; a new code replaces the previous
 *   one (re-submitting the number is how a code is sent again, once the number's send interval
 *   has passed);
 * - a `phone_number_verification` delivery is enqueued in the outbox (outbox/enqueue.ts) for each
 *   active webhook of the chain for that event (the chain's SMS provider), expiring with the code;
 *   a rolled-back write sends nothing.
 * A code the limits hold back is not made: the user write still succeeds (the number is the
 * member's data; its status is 2, pending verification), a code pending for that same number stays
 * valid, one for another number is dropped, and verify-phone-number then answers 920
 * phone_verification_send_limited with the wait. A write that clears the number, or leaves it
 * unverifiable, drops a pending code.
 *
 * Checking (verify-phone-number): the code row is read locked (FOR UPDATE), so two attempts on one
 * code are answered one after the other: the attempt count is exact, and the right code answers
 * the same twice. Wrong codes are also counted per user and per number across codes, in the
 * chain's window. A wrong code's attempt is committed before the refusal is answered.
 */
import { PHONE_NUMBER_STATUS } from "@service/shared/user-info";
import type { ErrorName } from "@service/shared";
import type { SecretBox } from "@service/shared/secret-box";
import { and, eq, ne } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { phoneVerifications, users } from "../db/schema.ts";
import { enqueue } from "../outbox/enqueue.ts";
import { WEBHOOK_DESTINATION } from "../webhooks/webhook-destination.ts";
import { chainWebhooksFor } from "../webhooks/webhook-repository.ts";
import type { CoreTx } from "./member-numbers.ts";
import { attemptAllowed, countWrongAttempt, readPhoneLimits, reserveSend, sendLimitedNow, type LimitVerdict } from "./phone-verification-limits.ts";
import { findUser, type UserRow } from "./user-repository.ts";
import { runTransaction } from "@service/shared/node";

/** The event type of the SMS (spec, "Events"). */
export const PHONE_VERIFICATION_EVENT = "phone_number_verification";
/** How long a code is valid. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes allowed before the code is used up. */
export const MAX_CODE_ATTEMPTS = 5;

/** What issuing and checking need from the service. */
export interface VerificationEnv {
  /** SERVICE_SECRET_KEY: the code hashes' key is derived from it */
  secretKey: string;
  secretBox: SecretBox;
  now: Date;
  /** the service's logger: a warning for a chain that verifies numbers but has no SMS webhook, an
   * info line for a code the chain's limits held back (absent: nothing logged) */
  log?: Pick<Logger, "warn" | "info">;
}

/** The payload of a `phone_number_verification` event (the webhook body's `data`). */
export interface PhoneVerificationPayload {
  user_id: number;
  phone_number: string;
  code: string;
  /** RFC 3339 UTC */
  expires_date: string;
  /** the SMS text */
  message: string;
}

/**
 * A uniformly drawn six-digit code (leading zeros kept), from the Web Crypto generator.
 * @example newVerificationCode() // "048213"
 */
export function newVerificationCode(): string {
  const LIMIT = 4_294_000_000; // the largest multiple of 10^6 below 2^32: no modulo bias
  const buf = new Uint32Array(1);
  do crypto.getRandomValues(buf);
  while (buf[0]! >= LIMIT);
  return String(buf[0]! % 1_000_000).padStart(6, "0");
}

/**
 * The stored form of a code: hex HMAC-SHA256 of `<user id>:<number>:<code>` under a key derived
 * (HKDF-SHA256) from SERVICE_SECRET_KEY, so a copy of the table alone does not give the codes away.
 */
export async function hashVerificationCode(secretKey: string, userId: number, phoneNumber: string, code: string): Promise<string> {
  const enc = new TextEncoder();
  const material = await crypto.subtle.importKey("raw", enc.encode(secretKey), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: enc.encode("service-platform phone verification code v1") },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${userId}:${phoneNumber}:${code}`)));
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * After a user write (inside its transaction): issues a code when the write leaves the user with
 * a validated number it was given, drops a pending one when the number was cleared or changed
 * otherwise; a code the chain's send limits hold back is not made (see the module comment). Called
 * only for chains with `verify_phone_numbers`, and only when the request gave phone_number.
 * @param saved the user as stored by the write
 * @returns the code issued (for the tests' sake; it goes out only by SMS), the deliveries
 *   enqueued, and the limit that held the code back (`held`, absent when none)
 */
export async function afterPhoneWrite(
  tx: CoreTx,
  saved: UserRow,
  env: VerificationEnv,
): Promise<{ code: string | null; deliveries: number; held?: LimitVerdict & { ok: false } }> {
  if (saved.phoneNumber === null || saved.phoneNumberStatus !== PHONE_NUMBER_STATUS.validated) {
    await tx.delete(phoneVerifications).where(eq(phoneVerifications.userId, saved.id));
    return { code: null, deliveries: 0 };
  }
  const limits = await readPhoneLimits(tx, saved.chainId);
  const verdict = await reserveSend(tx, saved.chainId, saved.id, saved.phoneNumber, limits, env.now);
  if (!verdict.ok) {
    await tx.delete(phoneVerifications).where(and(eq(phoneVerifications.userId, saved.id), ne(phoneVerifications.phoneNumber, saved.phoneNumber)));
    env.log?.info({ chainId: saved.chainId, userId: saved.id, limit: verdict.scope, retryAfterSeconds: verdict.retryAfterSeconds }, "phone verification code held back by the chain's limits");
    return { code: null, deliveries: 0, held: verdict };
  }
  const code = newVerificationCode();
  const expiresAt = new Date(env.now.getTime() + CODE_TTL_MS);
  const values = {
    chainId: saved.chainId,
    phoneNumber: saved.phoneNumber,
    codeHash: await hashVerificationCode(env.secretKey, saved.id, saved.phoneNumber, code),
    attempts: 0,
    expiresAt,
    verifiedDate: null,
    createdDate: env.now,
  };
  await tx.insert(phoneVerifications).values({ userId: saved.id, ...values }).onDuplicateKeyUpdate({ set: values });
  const payload: PhoneVerificationPayload = {
    user_id: saved.id,
    phone_number: saved.phoneNumber,
    code,
    expires_date: expiresAt.toISOString().replace(/\.\d{3}Z$/, "Z"),
    message: `Your verification code is ${code}. It expires in ${CODE_TTL_MS / 60_000} minutes.`,
  };
  const hooks = await chainWebhooksFor(tx, saved.chainId, PHONE_VERIFICATION_EVENT);
  if (hooks.length === 0) env.log?.warn({ chainId: saved.chainId, userId: saved.id }, "verify_phone_numbers is on but the chain has no active phone_number_verification webhook: no SMS sent");
  for (const hook of hooks) {
    await enqueue(tx, { chainId: saved.chainId, kind: WEBHOOK_DESTINATION, targetId: hook.id, eventType: PHONE_VERIFICATION_EVENT, payload, expiresAt }, env);
  }
  return { code, deliveries: hooks.length };
}

/** The outcome of a verification attempt: the verified user, or the refusal to answer (with the wait, for a limit that lifts by itself). */
export type VerifyOutcome = { ok: true; user: UserRow } | { ok: false; error: ErrorName; message: string; retryAfterSeconds?: number };

/**
 * Checks `code` for user `userId` of chain `chainId` (see the module comment for the order).
 * @param onVerified runs in the transaction that sets phone_number_status 3, with the user as
 *   stored then (the platform -> webshop sync: authentication-points/webshop-sync.ts); not run
 *   when nothing changes (a refused code, or the right code again for a verified number); a throw
 *   rolls the verification back
 * @returns the user as stored afterwards (phone_number_status 3), or the refusal: 908
 *   phone_verification_not_pending, or 920 phone_verification_send_limited when the chain's send
 *   limits held the number's code back; 906 phone_verification_code_expired; 907
 *   phone_verification_attempts_exceeded (the code's 5 tries, or the chain's wrong codes per user
 *   or per number in its window, with the wait); 905 phone_verification_code_invalid (the
 *   attempt is counted and committed); null user rows are the caller's to refuse (the user vanished)
 */
export async function verifyPhoneCode(
  db: CoreDb,
  chainId: number,
  userId: number,
  code: string,
  env: Omit<VerificationEnv, "secretBox">,
  onVerified?: (tx: CoreTx, user: UserRow) => Promise<void>,
): Promise<VerifyOutcome | null> {
  // Two transactions on one user's code and counters (or, on a cluster, a certification
  // conflict) end in a deadlock error for one of them: the transaction runner starts it over, and
  // it reads the other's result.
  return runTransaction(db, (tx) => checkCode(tx, chainId, userId, code, env, onVerified));
}

const refuse = (error: ErrorName, message: string, retryAfterSeconds?: number): VerifyOutcome =>
  ({ ok: false, error, message, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) });

async function checkCode(
  tx: CoreTx,
  chainId: number,
  userId: number,
  code: string,
  env: Omit<VerificationEnv, "secretBox">,
  onVerified?: (tx: CoreTx, user: UserRow) => Promise<void>,
): Promise<VerifyOutcome | null> {
  const [pending] = await tx.select().from(phoneVerifications)
    .where(and(eq(phoneVerifications.userId, userId), eq(phoneVerifications.chainId, chainId)))
    .for("update");
  const user = await findUser(tx, chainId, { id: userId });
  if (!user) return null;
  if (!pending || pending.phoneNumber !== user.phoneNumber) return notPending(tx, user, env.now);
  const right = (await hashVerificationCode(env.secretKey, userId, pending.phoneNumber, code)) === pending.codeHash;
  if (pending.verifiedDate !== null) {
    return right ? { ok: true, user } : refuse("phone_verification_not_pending", "The phone number is verified already.");
  }
  if (env.now.getTime() >= pending.expiresAt.getTime()) return refuse("phone_verification_code_expired", "The code has expired; change or re-submit the phone number for a new one.");
  if (pending.attempts >= MAX_CODE_ATTEMPTS) return refuse("phone_verification_attempts_exceeded", `${MAX_CODE_ATTEMPTS} wrong codes were tried; change or re-submit the phone number for a new one.`);
  // Checked before the code is compared: during the wait a right guess tells nothing either.
  const limits = await readPhoneLimits(tx, chainId);
  const allowed = await attemptAllowed(tx, chainId, userId, pending.phoneNumber, limits, env.now);
  if (!allowed.ok) {
    const whose = allowed.scope === "try_user" ? "this user" : "this phone number";
    return refuse("phone_verification_attempts_exceeded", `Too many wrong codes for ${whose}; try again in ${allowed.retryAfterSeconds} s.`, allowed.retryAfterSeconds);
  }
  if (!right) {
    const attempts = pending.attempts + 1;
    await tx.update(phoneVerifications).set({ attempts }).where(eq(phoneVerifications.userId, userId));
    await countWrongAttempt(tx, chainId, userId, pending.phoneNumber, limits, env.now);
    const left = MAX_CODE_ATTEMPTS - attempts;
    return refuse("phone_verification_code_invalid", `The code is wrong; ${left} ${left === 1 ? "try" : "tries"} left.`);
  }
  await tx.update(phoneVerifications).set({ verifiedDate: env.now }).where(eq(phoneVerifications.userId, userId));
  await tx.update(users).set({ phoneNumberStatus: PHONE_NUMBER_STATUS.verified, lastModifiedDate: env.now })
    .where(and(eq(users.id, userId), eq(users.chainId, chainId)));
  const verified = (await findUser(tx, chainId, { id: userId }))!;
  await onVerified?.(tx, verified);
  return { ok: true, user: verified };
}

/** No code for the user's current number: 920 when the chain's send limits held it back, else 908. */
async function notPending(tx: CoreTx, user: UserRow, now: Date): Promise<VerifyOutcome> {
  if (user.phoneNumber !== null && user.phoneNumberStatus === PHONE_NUMBER_STATUS.validated) {
    const limited = await sendLimitedNow(tx, user.chainId, user.id, user.phoneNumber, await readPhoneLimits(tx, user.chainId), now);
    if (!limited.ok) {
      return refuse("phone_verification_send_limited", `No code was sent to this number: the chain's limits on codes sent hold it back; re-submit the phone number in ${limited.retryAfterSeconds} s.`, limited.retryAfterSeconds);
    }
  }
  return refuse("phone_verification_not_pending", "No code is pending for the user's current phone number.");
}
