/**
 * `GET /internal/get-campaign?campaign_id=`, declared once: its parameter, errors and results.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignRecordSchema } from "./add-campaign.ts";
import { campaignIdParam } from "./alter-campaign.ts";
import { defineCall } from "./call.ts";

/** `results` of get-campaign. */
export const getCampaignResultsSchema = z.strictObject({
  campaign: campaignRecordSchema,
  result_type: z.literal("get-campaign"),
});
export type GetCampaignResults = z.infer<typeof getCampaignResultsSchema>;

/** The whole success body of get-campaign. */
export const getCampaignResponseSchema = successEnvelope(getCampaignResultsSchema);

/** get-campaign: one campaign of a chain the admin can read (unknown parameters are ignored). */
export const getCampaignCall = defineCall({
  name: "get-campaign",
  method: "GET",
  path: "/internal/get-campaign",
  summary: "One campaign",
  description: "The campaign campaign_id; an unknown campaign and one of a chain the admin cannot read answer alike (246).",
  params: { campaign_id: campaignIdParam() },
  errors: ["no_valid_session", "campaign_id_not_found", "http_request_method_non_GET_not_allowed"],
  results: getCampaignResultsSchema,
});
