/**
 * The phone verification step of add-user and alter-user (users/phone-verification.ts): with the
 * chain's `verify_phone_numbers` on and phone_number given, the user write's transaction issues a
 * code and enqueues the SMS when the chain's limits allow it (users/phone-verification-limits.ts;
 * a code held back leaves the write as it is, logged at info level); once the write committed,
 * this process's outbox worker is woken so the SMS leaves at once, and the chain's counters that
 * count nothing any more are pruned.
 */
import type { ChainRow } from "../chains/chain-repository.ts";
import type { RequestContext } from "../auth/request-context.ts";
import { afterPhoneWrite } from "../users/phone-verification.ts";
import { pruneCounters } from "../users/phone-verification-limits.ts";
import type { UserWrite } from "../users/save-user.ts";
import type { UserChanges } from "../users/user-changes.ts";

/** What the step reads of the chain (the head every request reads has it). */
type VerifyingChain = Pick<ChainRow, "verifyPhoneNumbers">;

/** The hook to pass as UserWrite.onSaved, and what to call after the write committed. */
export interface PhoneVerificationStep {
  onSaved: UserWrite["onSaved"];
  /** wakes the outbox worker when the write enqueued an SMS; prunes the chain's spent counters (a failure is logged, not thrown) */
  afterCommit(): Promise<void>;
}

/**
 * The step for one request; no hook when the chain does not verify numbers or the request gives
 * no phone_number.
 * @throws Error when the service runs without SERVICE_SECRET_KEY (only tests can) and a code is due
 */
export async function phoneVerificationStep(ctx: RequestContext, chain: VerifyingChain, changes: UserChanges): Promise<PhoneVerificationStep> {
  if (!chain.verifyPhoneNumbers || changes.phoneNumber === undefined) return { onSaved: undefined, afterCommit: async () => {} };
  const secretBox = await ctx.secretBox();
  const env = { secretKey: ctx.deps.config.secretKey!, secretBox, now: ctx.now, warn: (f: object, m: string) => ctx.deps.logger?.warn(f, m), info: (f: object, m: string) => ctx.deps.logger?.info(f, m) };
  let enqueued = false;
  let counted: number | null = null;
  return {
    onSaved: async (tx, saved) => {
      const issued = await afterPhoneWrite(tx, saved, env);
      enqueued = issued.deliveries > 0;
      if (issued.code !== null || issued.held) counted = saved.chainId;
    },
    afterCommit: async () => {
      if (enqueued) ctx.deps.outboxWake?.();
      if (counted === null) return;
      await pruneCounters(ctx.db, counted, ctx.now).catch((err: unknown) => ctx.deps.logger?.warn({ err, chainId: counted }, "pruning phone verification counters failed"));
    },
  };
}
