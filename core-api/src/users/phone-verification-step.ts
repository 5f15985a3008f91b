/**
 * The phone verification step of a user write (add-user, alter-user): the `onSaved` hook the
 * write's transaction runs (users/save-user.ts), which issues a code and enqueues its SMS when the
 * chain's limits allow (afterPhoneWrite, users/phone-verification.ts), and what the caller runs
 * once the write committed: wake the outbox worker when an SMS was enqueued, prune the chain's
 * counters that count nothing any more (users/phone-verification-limits.ts).
 *
 * The hook is built here, in the domain, so that the write calls only down: the request handler
 * (internal/phone-verification-hook.ts) hands in the service's pieces and never a closure of its
 * own.
 */
import type { CoreDb } from "../db/client.ts";
import { afterPhoneWrite, type VerificationEnv } from "./phone-verification.ts";
import { pruneCounters } from "./phone-verification-limits.ts";
import type { UserWrite } from "./save-user.ts";

/** The hook to pass as UserWrite.onSaved, and what to call after the write committed. */
export interface PhoneVerificationStep {
  onSaved: UserWrite["onSaved"];
  /** wakes the outbox worker when the write enqueued an SMS; prunes the chain's spent counters (a failure is logged, not thrown) */
  afterCommit(): Promise<void>;
}

/** The step that does nothing: the chain does not verify numbers, or the request gives none. */
export const NO_PHONE_VERIFICATION: PhoneVerificationStep = { onSaved: undefined, afterCommit: async () => {} };

/**
 * The step of one write.
 * @param env what issuing a code needs (VerificationEnv), the request's database handle the
 *   counters are pruned on after the commit, and the outbox worker's wake-up (absent: none in this
 *   process)
 */
export function phoneVerificationStepOf(env: VerificationEnv & { db: CoreDb; wake?: () => void }): PhoneVerificationStep {
  let enqueued = false;
  let counted: number | null = null;
  return {
    onSaved: async (tx, saved) => {
      const issued = await afterPhoneWrite(tx, saved, env);
      enqueued = issued.deliveries > 0;
      if (issued.code !== null || issued.held) counted = saved.chainId;
    },
    afterCommit: async () => {
      if (enqueued) env.wake?.();
      if (counted === null) return;
      const chainId = counted;
      await pruneCounters(env.db, chainId, env.now).catch((err: unknown) => env.log?.warn({ err, chainId }, "pruning phone verification counters failed"));
    },
  };
}
