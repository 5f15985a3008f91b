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
 *
 * delete-campaign (spec, "Internal call: delete-campaign") needs its row (write and the campaign
 * permission) and, when the chain's `restrict_campaign_enable` is on and the campaign is active,
 * `campaign_enable` too (a super user holds every level): else 68. An inactive campaign needs no
 * campaign_enable.
 */
import { CALL_ACCESS, mayAttempt, verdictOf, type AccessRule } from "../auth/access-table.ts";
import { requireAccess, requireSession } from "../auth/context.ts";
import type { ChainGrant } from "../auth/identity.ts";
import type { RequestAuth } from "../auth/request-auth.ts";
import type { ChainHead } from "../chains/chain-columns.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { activeNeedsEnable, findLiveCampaign, type CampaignRow } from "../campaigns/campaign-repository.ts";

/** The campaign calls, by their rows of the access table. */
export type CampaignCall = "get-campaign" | "alter-campaign" | "delete-campaign";

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
  return (await campaignGrant(db, auth, campaignId, call)).campaign;
}

/** What delete-campaign may do with a campaign it passed. */
export interface CampaignDeletion {
  campaign: CampaignRow;
  /** whether the caller may delete the campaign while it is active (checked again on the locked row) */
  mayDeleteActive: boolean;
}

/**
 * The live campaign `campaignId`, when the caller may delete it: delete-campaign's row of the
 * access table (write and campaign on its chain), and campaign_enable when the campaign is active
 * and its chain has restrict_campaign_enable.
 * @returns the campaign and whether an active one may be deleted (the deletion re-checks it on
 *   the locked row: campaign-repository.ts deleteCampaign)
 * @throws ServiceError as requireCampaignAccess; permission_denied_or_non_existent (68, 403) for
 *   an active campaign in a restricting chain without campaign_enable
 */
export async function requireCampaignDeletion(db: CoreDb, auth: RequestAuth, campaignId: number): Promise<CampaignDeletion> {
  const { campaign, grant } = await campaignGrant(db, auth, campaignId, "delete-campaign");
  const mayDeleteActive = !grant.chain.restrictCampaignEnable || grant.levels?.campaign_enable === true;
  if (campaign.isActive && !mayDeleteActive) throw activeNeedsEnable();
  return { campaign, mayDeleteActive };
}

/** The campaign and the caller's grant on its chain, by the rule of the module comment. */
async function campaignGrant(
  db: CoreDb,
  auth: RequestAuth,
  campaignId: number,
  call: CampaignCall,
): Promise<{ campaign: CampaignRow; grant: ChainGrant & { chain: ChainHead } }> {
  requireSession(auth);
  const row = CALL_ACCESS[call];
  const campaign = await findLiveCampaign(db, campaignId);
  if (!campaign || auth.kind === "anonymous" || !mayAttempt(row, auth.kind)) throw new ServiceError("campaign_id_not_found");
  // Read access, or the call's own level, makes the campaign visible; the call's levels come after.
  const onChain = await auth.onChain(campaign.chainId);
  const reads: AccessRule = { callers: row.callers, level: "read" };
  const own: AccessRule = { callers: row.callers, level: row.level };
  if (verdictOf(reads, onChain) === "denied" && verdictOf(own, onChain) === "denied") throw new ServiceError("campaign_id_not_found");
  const grant = await requireAccess(auth, row, campaign.chainId, "permission_denied_or_non_existent");
  return { campaign, grant };
}
