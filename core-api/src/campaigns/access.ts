/**
 * Which campaign a campaign call may touch (alter-campaign, get-campaign), without revealing the
 * campaigns of chains the caller cannot see.
 *
 * Rule: a campaign id answers 246 campaign_id_not_found when no live campaign has it, or when the
 * caller has no read access on its chain (another chain's campaign, a deleted chain): those cases
 * are indistinguishable. A caller who can read the campaign but lacks the level the call needs
 * (write for alter-campaign) gets 68 permission_denied_or_non_existent: that reveals nothing the
 * caller could not already see through get-campaign. Admins and privileged chain-scope tokens
 * hold levels (auth/context.ts chainLevelsOf); shoppers and read_businesses tokens hold none.
 */
import { chainLevelsOf, requireSession, type AuthContext } from "../auth/context.ts";
import type { AccessLevel } from "../auth/permissions.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import { findLiveCampaign, type CampaignRow } from "./repository.ts";

/**
 * The live campaign `campaignId`, when the caller has `level` on its chain.
 * @returns the stored row
 * @throws ServiceError no_valid_session (6, 401) without a session; campaign_id_not_found
 *   (246, 404) when the campaign does not exist or the caller cannot read its chain;
 *   permission_denied_or_non_existent (68, 403) when the caller can read it but lacks `level`
 */
export async function requireCampaignAccess(
  db: CoreDb,
  auth: AuthContext,
  campaignId: number,
  level: AccessLevel,
): Promise<CampaignRow> {
  requireSession(auth);
  const campaign = await findLiveCampaign(db, campaignId);
  const levels = campaign ? await chainLevelsOf(db, auth, campaign.chainId) : null;
  if (!campaign || !levels || (!levels.read && !levels[level])) throw new ServiceError("campaign_id_not_found");
  if (!levels[level]) throw new ServiceError("permission_denied_or_non_existent");
  return campaign;
}
