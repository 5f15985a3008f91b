/**
 * The phone verification step of add-user and alter-user (users/phone-verification.ts): with the
 * chain's `verify_phone_numbers` on and phone_number given, the user write's transaction issues a
 * code and enqueues the SMS when the chain's limits allow it (users/phone-verification-limits.ts;
 * a code held back leaves the write as it is, logged at info level); once the write committed,
 * this process's outbox worker is woken so the SMS leaves at once.
 */
import type { ChainRow } from "../chains/chain-repository.ts";
import type { RequestContext } from "../http/request-context.ts";
import { afterPhoneWrite } from "../users/phone-verification.ts";
import type { UserWrite } from "../users/save-user.ts";
import type { UserChanges } from "../users/user-changes.ts";

/** What the step reads of the chain (the head every request reads has it). */
type VerifyingChain = Pick<ChainRow, "verifyPhoneNumbers">;

/** The hook to pass as UserWrite.onSaved, and what to call after the write committed. */
export interface PhoneVerificationStep {
  onSaved: UserWrite["onSaved"];
  /** wakes the outbox worker when the write enqueued an SMS */
  afterCommit(): void;
}

/**
 * The step for one request; no hook when the chain does not verify numbers or the request gives
 * no phone_number.
 * @throws Error when the service runs without SERVICE_SECRET_KEY (only tests can) and a code is due
 */
export async function phoneVerificationStep(ctx: RequestContext, chain: VerifyingChain, changes: UserChanges): Promise<PhoneVerificationStep> {
  if (!chain.verifyPhoneNumbers || changes.phoneNumber === undefined) return { onSaved: undefined, afterCommit() {} };
  const secretBox = await ctx.secretBox();
  const env = { secretKey: ctx.deps.config.secretKey!, secretBox, now: ctx.now, warn: (f: object, m: string) => ctx.deps.logger?.warn(f, m), info: (f: object, m: string) => ctx.deps.logger?.info(f, m) };
  let enqueued = false;
  return {
    onSaved: async (tx, saved) => {
      enqueued = (await afterPhoneWrite(tx, saved, env)).deliveries > 0;
    },
    afterCommit: () => {
      if (enqueued) ctx.deps.outboxWake?.();
    },
  };
}
