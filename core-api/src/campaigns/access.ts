/**
 * Which campaign a campaign call may touch (alter-campaign, get-campaign), without revealing the
 * campaigns of chains the caller cannot see. Who may call them at all, and with which level, is
 * the calls' row of the access table (auth/access-table.ts CALL_ACCESS).
 *
 * Rule: a campaign id answers 246 campaign_id_not_found when no live campaign has it, or when the
 * caller holds neither read nor the call's level on its chain (another chain's campaign, a deleted
 * chain, a caller kind the row does not list): those cases are indistinguishable. A caller who can read the campaign
 * but lacks the level the call needs (write for alter-campaign) gets 68
 * permission_denied_or_non_existent: that reveals nothing the caller could not already see through
 * get-campaign. An admin outside the chain's allowed IP ranges gets 68 naming the address, as on
 * every other chain the admin reaches (auth/ip-allowlist.ts).
 */
import { CALL_ACCESS, mayAttempt, verdictOf, type AccessRule } from "../auth/access-table.ts";
import { requireAccess, requireSession } from "../auth/context.ts";
import type { RequestAuth } from "../auth/request-auth.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { findLiveCampaign, type CampaignRow } from "./campaign-repository.ts";

/** The campaign calls, by their rows of the access table. */
export type CampaignCall = "get-campaign" | "alter-campaign";

/**
 * The live campaign `campaignId`, when the caller passes `call`'s row on its chain.
 * @param call the call's row in the access table
 * @returns the stored row
 * @throws ServiceError no_valid_session (6, 401) / access_token_invalid (266, 401) for missing or
 *   bad credentials; campaign_id_not_found (246, 404) when the campaign does not exist or the
 *   caller cannot read its chain; permission_denied_or_non_existent (68, 403) when the caller can
 *   read it but lacks the call's level, or is an admin outside the chain's allowed IP ranges
 */
export async function requireCampaignAccess(
  db: CoreDb,
  auth: RequestAuth,
  campaignId: number,
  call: CampaignCall,
): Promise<CampaignRow> {
  requireSession(auth);
  const row = CALL_ACCESS[call];
  const campaign = await findLiveCampaign(db, campaignId);
  if (!campaign || auth.kind === "anonymous" || !mayAttempt(row, auth.kind)) throw new ServiceError("campaign_id_not_found");
  // Read access, or the call's own level, makes the campaign visible; the call's level comes after.
  const grant = await auth.onChain(campaign.chainId);
  const reads: AccessRule = { callers: row.callers, level: "read" };
  if (verdictOf(reads, grant) === "denied" && verdictOf(row, grant) === "denied") throw new ServiceError("campaign_id_not_found");
  await requireAccess(auth, row, campaign.chainId, "permission_denied_or_non_existent");
  return campaign;
}
