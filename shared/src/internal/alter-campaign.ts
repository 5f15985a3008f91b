/**
 * Contract of `PUT /internal/alter-campaign`: its params and its results.
 *
 * Every parameter but campaign_id is optional: an absent parameter leaves the field unchanged; an
 * empty active date clears it; the title cannot be cleared. The resulting active period must
 * still run forwards (from <= until), checked against the stored dates for the one not given.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignDateTimeValue, campaignRecordSchema, campaignTitleValue } from "./add-campaign.ts";
import { booleanValue, integerValue } from "./param-values.ts";

/** Parameters of alter-campaign (form, multipart or JSON; unknown parameters are ignored). */
export const alterCampaignParamsSchema = z.object({
  campaign_id: integerValue,
  title: campaignTitleValue.optional(),
  is_active: booleanValue.optional(),
  active_date_from: campaignDateTimeValue.optional(),
  active_date_until: campaignDateTimeValue.optional(),
});
export type AlterCampaignParams = z.input<typeof alterCampaignParamsSchema>;

/** `results` of alter-campaign: the campaign as stored after the call (unchanged when nothing changed). */
export const alterCampaignResultsSchema = z.strictObject({
  campaign: campaignRecordSchema,
  result_type: z.literal("alter-campaign"),
});
export type AlterCampaignResults = z.infer<typeof alterCampaignResultsSchema>;

/** The whole success body of alter-campaign. */
export const alterCampaignResponseSchema = successEnvelope(alterCampaignResultsSchema);
