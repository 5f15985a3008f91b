/**
 * `POST /internal/verify-phone-number` (handbook, "Events"; spec, "Versioning" 1.6.3): checks the
 * SMS code of the user's current phone number and marks it verified (phone_number_status 3).
 * Contract: `@service/shared/internal/verify-phone-number`. Response `results`: `{user,
 * result_type: "verify-phone-number"}`.
 *
 * Who: admins with assign access to the user's chain and chain-scope tokens name the user by
 * user_id; a shopper verifies their own number (user_id optional), as alter-user.
 *
 * Checks, in order: credentials (6 / 266); user_id an integer (419); code present (441) and six
 * digits (419); user_id missing for admins and tokens 441 parameter_missing; the user: one that
 * does not exist, one of a chain the caller cannot assign on, and for a shopper anyone but
 * themselves all answer 68 permission_denied_or_non_existent alike; then the code
 * (users/phone-verification.ts): 908 phone_verification_not_pending (920
 * phone_verification_send_limited, with Retry-After, when the chain's send limits held the code
 * back), 906 phone_verification_code_expired, 907 phone_verification_attempts_exceeded (with
 * Retry-After when the chain's limit of wrong codes per user or per number is reached), 905
 * phone_verification_code_invalid (a wrong code counts as an attempt, and nothing else changes).
 *
 * On a chain with an authentication point the verified user (phone_number_status 3) is sent to the
 * webshop through the outbox, in the transaction that verifies (handbook, "Sync between the
 * webshop and the platform": add-user, alter-user and verify-phone-number all write an outbox
 * row), unless the webshop (the chain's identity-source client) made the call; the outbox worker is
 * woken once it committed. A refused code, or the right code again, sends nothing.
 */
import { okBody } from "@service/shared";
import { verifyPhoneNumberCall, type VerifyPhoneNumberResults } from "@service/shared/internal/verify-phone-number";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { requireAccess, requireSession } from "../auth/context.ts";
import { userActedOn } from "./user-acted-on.ts";
import { webshopSyncStep } from "./webshop-sync-step.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { verifyPhoneCode } from "../users/phone-verification.ts";
import { userInfoOf } from "../users/user-info-record.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import type { UserRow } from "../users/user-repository.ts";

const DENIED = "permission_denied_or_non_existent";

/** Handles verify-phone-number; see the module comment. */
export async function verifyPhoneNumber(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version, deps } = c.var.ctx;
  requireSession(auth);
  const { user_id: userIdParam, code } = readCallParams(verifyPhoneNumberCall, await allParams(c));
  const row = CALL_ACCESS["verify-phone-number"];

  const { userId, chainId } = await userActedOn(auth, db, userIdParam);
  await requireAccess(auth, row, chainId, DENIED);

  const secretKey = deps.config.secretKey;
  if (!secretKey) throw new Error("verify-phone-number: SERVICE_SECRET_KEY is not set");
  const webshopSync = await webshopSyncStep(c.var.ctx, chainId);
  let enqueued = false;
  const onVerified = webshopSync && (async (tx: CoreTx, user: UserRow) => {
    await webshopSync(tx, user);
    enqueued = true;
  });
  const outcome = await verifyPhoneCode(db, chainId, userId, code, { secretKey, now }, onVerified);
  // Deleted between the look-up and the check: answered as any user that does not exist.
  if (!outcome) throw new ServiceError(DENIED);
  if (!outcome.ok) throw new ServiceError(outcome.error, outcome.message, { retryAfterSeconds: outcome.retryAfterSeconds });
  if (enqueued) deps.outboxWake?.();
  const results: VerifyPhoneNumberResults = { user: userInfoOf(outcome.user, version), result_type: "verify-phone-number" };
  return c.json(okBody(results));
}
