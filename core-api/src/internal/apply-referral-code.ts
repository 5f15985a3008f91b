/**
 * `POST /internal/apply-referral-code` (handbook, "Baskets": apply-referral-code): records the
 * owner of referral_code as the user's referrer. Contract:
 * `@service/shared/internal/apply-referral-code`. Response `results`:
 * `{user, referring_user, result_type: "apply-referral-code"}`.
 *
 * Who: admins with assign access and chain-scope tokens name chain_id (3) and user_id (441); a
 * shopper applies a code for themselves (a user_id or chain_id of anyone else is 68).
 *
 * Checks, in order (nothing is written unless all pass): credentials (6 / 266); the parameters'
 * own errors (76, 419, 482; referral_code missing 441); access (68); the user of the chain (68);
 * the code a referral code of a user of the chain (419, as add-user), not the user's own (917);
 * the chain's window open (918); no referrer yet (919; the unique index decides a race).
 * Rewards wait for referral campaigns: none is issued.
 */
import { okBody } from "@service/shared";
import { applyReferralCodeCall, type ApplyReferralCodeResults } from "@service/shared/internal/apply-referral-code";
import { runTransaction } from "@service/shared/node";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { requireAccess, requireSession, shopperOf } from "../auth/context.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import { chains, userReferrals } from "../db/schema.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { userInfoOf } from "../users/user-info-record.ts";
import { findReferrer } from "../users/user-references.ts";
import { findUser } from "../users/user-repository.ts";
import { windowOpen } from "../users/referral-window.ts";

const DENIED = "permission_denied_or_non_existent";

/** Handles apply-referral-code; see the module comment. */
export async function applyReferralCode(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const v = readCallParams(applyReferralCodeCall, await allParams(c));
  const me = await shopperOf(auth);
  let chainId: number;
  let userId: number;
  if (me) {
    if ((v.chain_id !== undefined && v.chain_id !== me.chainId) || (v.user_id !== undefined && v.user_id !== me.userId)) throw new ServiceError(DENIED);
    [chainId, userId] = [me.chainId, me.userId];
  } else {
    if (v.chain_id === undefined) throw new ServiceError("http_vars_missing", "chain_id is required.");
    if (v.user_id === undefined) throw new ServiceError("parameter_missing", "user_id is required.");
    [chainId, userId] = [v.chain_id, v.user_id];
  }
  await requireAccess(auth, CALL_ACCESS["apply-referral-code"], chainId, DENIED);
  const user = await findUser(db, chainId, { id: userId });
  if (!user) throw new ServiceError(DENIED, `user_id ${userId} is no user of the chain.`);
  const referrer = await findReferrer(db, chainId, v.referral_code);
  if (!referrer) throw new ServiceError("parameter_invalid", "referral_code is no referral code of a user of the chain.");
  if (referrer.id === user.id) throw new ServiceError("referral_code_own", "referral_code is the user's own.");
  const [chain] = await db.select({ unit: chains.referralCodeSubmissionWindowUnit, quantity: chains.referralCodeSubmissionWindowQuantity }).from(chains).where(eq(chains.id, chainId));
  if (!chain || !windowOpen(user.createdDate, chain.unit, chain.quantity, now)) throw new ServiceError("referral_window_closed", "The chain's referral code submission window is not configured or has passed for this user.");
  try {
    await runTransaction(db, async (tx) => {
      const [existing] = await tx.select({ id: userReferrals.id }).from(userReferrals).where(eq(userReferrals.userId, user.id)).for("update");
      if (existing) throw new ServiceError("referral_already_applied", "The user already has a referrer.");
      await tx.insert(userReferrals).values({ chainId, userId: user.id, referringUserId: referrer.id, createdDate: now });
    });
  } catch (err) {
    if (isDuplicateKey(err, "user_referrals_one_per_user")) throw new ServiceError("referral_already_applied", "The user already has a referrer.");
    throw err;
  }
  const results: ApplyReferralCodeResults = {
    user: userInfoOf(user, version),
    referring_user: { id: referrer.id, first_name: referrer.firstName, last_name: referrer.lastName },
    result_type: "apply-referral-code",
  };
  return c.json(okBody(results));
}
