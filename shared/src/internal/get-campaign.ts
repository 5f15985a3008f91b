/**
 * Contract of `GET /internal/get-campaign?campaign_id=`: its params and its results.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignRecordSchema } from "./add-campaign.ts";
import { integerValue } from "./param-values.ts";

/** Parameters of get-campaign (query string; unknown parameters are ignored). */
export const getCampaignParamsSchema = z.object({
  campaign_id: integerValue,
});
export type GetCampaignParams = z.input<typeof getCampaignParamsSchema>;

/** `results` of get-campaign. */
export const getCampaignResultsSchema = z.strictObject({
  campaign: campaignRecordSchema,
  result_type: z.literal("get-campaign"),
});
export type GetCampaignResults = z.infer<typeof getCampaignResultsSchema>;

/** The whole success body of get-campaign. */
export const getCampaignResponseSchema = successEnvelope(getCampaignResultsSchema);
