/**
 * `DELETE /internal/delete-campaign` (spec, "Internal call: delete-campaign"), declared once: its
 * parameter, errors and results.
 *
 * Auth: write access to the campaign's chain and the campaign permission (the spec's flag
 * `permissions_business_chain_campaign` is the admin access level `campaign`); when the chain's
 * setting `restrict_campaign_enable` is on, deleting an active campaign also needs
 * `campaign_enable` (a super user holds every level). Effects: the campaign's webhooks are
 * deleted, the campaign becomes inactive and deleted, and the change is recorded in its change log.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignIdParam } from "./alter-campaign.ts";
import { defineCall } from "./call.ts";

/** `results` of delete-campaign. */
export const deleteCampaignResultsSchema = z.strictObject({
  campaign_id: z.int(),
  is_active: z.literal(false),
  is_deleted: z.literal(true),
  result_type: z.literal("delete-campaign"),
});
export type DeleteCampaignResults = z.infer<typeof deleteCampaignResultsSchema>;

/** The whole success body of delete-campaign. */
export const deleteCampaignResponseSchema = successEnvelope(deleteCampaignResultsSchema);

/** delete-campaign: deletes the campaign `campaign_id` (unknown parameters are ignored). */
export const deleteCampaignCall = defineCall({
  name: "delete-campaign",
  method: "DELETE",
  path: "/internal/delete-campaign",
  summary: "Delete a campaign",
  description:
    "Deletes the campaign campaign_id and its webhooks: the campaign becomes inactive and deleted, and the change is " +
    "recorded in its change log. Needs write access to the campaign's chain and the campaign permission " +
    "(permissions_business_chain_campaign); when the chain's restrict_campaign_enable is on, an active campaign also " +
    "needs campaign_enable. An unknown campaign and one the admin cannot read answer alike (246).",
  params: { campaign_id: campaignIdParam() },
  errors: ["no_valid_session", "campaign_id_not_found", "permission_denied_or_non_existent", "http_request_method_non_DELETE_not_allowed"],
  results: deleteCampaignResultsSchema,
});
