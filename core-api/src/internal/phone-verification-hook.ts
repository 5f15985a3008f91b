/**
 * The phone verification step of add-user and alter-user (users/phone-verification-step.ts): with
 * the chain's `verify_phone_numbers` on and phone_number given, the user write's transaction issues
 * a code and enqueues the SMS when the chain's limits allow it (users/phone-verification-limits.ts;
 * a code held back leaves the write as it is, logged at info level); once the write committed,
 * this process's outbox worker is woken so the SMS leaves at once, and the chain's counters that
 * count nothing any more are pruned. This module only hands the request's pieces (secret key and
 * box, clock, logger, database handle, outbox wake-up) to the domain, which builds the hook.
 */
import type { ChainRow } from "../chains/chain-repository.ts";
import type { RequestContext } from "../auth/request-context.ts";
import { NO_PHONE_VERIFICATION, phoneVerificationStepOf, type PhoneVerificationStep } from "../users/phone-verification-step.ts";
import type { UserChanges } from "../users/user-changes.ts";

/** What the step reads of the chain (the head every request reads has it). */
type VerifyingChain = Pick<ChainRow, "verifyPhoneNumbers">;

/**
 * The step for one request; no hook when the chain does not verify numbers or the request gives
 * no phone_number.
 * @throws Error when the service runs without SERVICE_SECRET_KEY (only tests can) and a code is due
 */
export async function phoneVerificationStep(ctx: RequestContext, chain: VerifyingChain, changes: UserChanges): Promise<PhoneVerificationStep> {
  if (!chain.verifyPhoneNumbers || changes.phoneNumber === undefined) return NO_PHONE_VERIFICATION;
  const { deps } = ctx;
  return phoneVerificationStepOf({
    secretKey: deps.config.secretKey!,
    secretBox: await ctx.secretBox(),
    now: ctx.now,
    log: deps.logger,
    db: ctx.db,
    wake: deps.outboxWake,
  });
}
