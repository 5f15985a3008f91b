/**
 * `GET /internal/get-campaign-groups?chain_id=`, declared once: its parameters, errors and
 * results (`campaign_groups`, each the record of `add-campaign-group.ts`).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignGroupRecordSchema } from "./add-campaign-group.ts";
import { defineCall, param } from "./call.ts";

/** Page size when `limit` is absent, and the largest accepted. */
export const GET_CAMPAIGN_GROUPS_MAX_LIMIT = 500;

/** `results` of get-campaign-groups. */
export const getCampaignGroupsResultsSchema = z.strictObject({
  campaign_groups: z.array(campaignGroupRecordSchema),
  result_type: z.literal("get-campaign-groups"),
});
export type GetCampaignGroupsResults = z.infer<typeof getCampaignGroupsResultsSchema>;

/** The whole success body of get-campaign-groups. */
export const getCampaignGroupsResponseSchema = successEnvelope(getCampaignGroupsResultsSchema);

const NUMBER = { invalid: "parameter_invalid" } as const;

/** get-campaign-groups: the chain's campaign groups, oldest first (unknown parameters are ignored). */
export const getCampaignGroupsCall = defineCall({
  name: "get-campaign-groups",
  method: "GET",
  path: "/internal/get-campaign-groups",
  summary: "The campaign groups of a chain",
  description: "The chain's campaign groups in the order they were created. Needs read access to the chain.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    limit: param(z.int().min(1).max(GET_CAMPAIGN_GROUPS_MAX_LIMIT).default(GET_CAMPAIGN_GROUPS_MAX_LIMIT), { ...NUMBER, description: "page size" }),
    offset: param(z.int().min(0).default(0), { ...NUMBER, description: "groups to skip" }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "http_request_method_non_GET_not_allowed"],
  results: getCampaignGroupsResultsSchema,
});
