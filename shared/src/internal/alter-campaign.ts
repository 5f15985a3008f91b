/**
 * `PUT /internal/alter-campaign`, declared once: its parameters, errors and results.
 *
 * Every parameter but campaign_id is optional: an absent parameter leaves the field unchanged; an
 * empty active date clears it; the title cannot be cleared. The resulting active period must
 * still run forwards (from <= until), checked against the stored dates for the one not given.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignFieldParams, campaignRecordSchema, campaignTitle } from "./add-campaign.ts";
import { defineCall, param } from "./call.ts";

/** `results` of alter-campaign: the campaign as stored after the call (unchanged when nothing changed). */
export const alterCampaignResultsSchema = z.strictObject({
  campaign: campaignRecordSchema,
  result_type: z.literal("alter-campaign"),
});
export type AlterCampaignResults = z.infer<typeof alterCampaignResultsSchema>;

/** The whole success body of alter-campaign. */
export const alterCampaignResponseSchema = successEnvelope(alterCampaignResultsSchema);

/** The campaign_id of the campaign calls: 245 when missing, 244 when not an integer. */
export const campaignIdParam = () => param(z.int(), { missing: "campaign_id_not_present", invalid: "campaign_id_invalid" });

/** alter-campaign: changes the campaign `campaign_id` and records the change in the change log (unknown parameters are ignored). */
export const alterCampaignCall = defineCall({
  name: "alter-campaign",
  method: "PUT",
  path: "/internal/alter-campaign",
  summary: "Change a campaign",
  description:
    "Changes the given fields of the campaign campaign_id and records the change in the change log; a call that changes " +
    "nothing writes nothing. Needs write access to the campaign's chain; an unknown campaign and one the admin cannot " +
    "read answer alike (246).",
  params: {
    campaign_id: campaignIdParam(),
    title: param(campaignTitle(), { invalid: "parameter_invalid", length: "string_parameter_too_long", description: "cannot be emptied" }).optional(),
    ...campaignFieldParams,
  },
  errors: ["no_valid_session", "campaign_id_not_found", "permission_denied_or_non_existent", "http_request_method_non_PUT_not_allowed"],
  results: alterCampaignResultsSchema,
});
