/**
 * `DELETE /internal/delete-campaign-group` (spec, "Internal call: delete-campaign-group",
 * "Versioning"), declared once: its parameter, errors and results.
 *
 * Available from API version 1.0: an older `X-Service-API-version` is answered as a path no call
 * answers (13, 405; handbook, "unknown or wrong-method path"). The group is removed; its
 * campaigns are kept and are no longer in it. `results.campaign_group` is the group as it stood
 * just before (its `campaign_ids` are the campaigns it let go).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignGroupRecordSchema } from "./add-campaign-group.ts";
import { defineCall, param } from "./call.ts";

/** The first API version that has delete-campaign-group. */
export const DELETE_CAMPAIGN_GROUP_SINCE = [1, 0, 0] as const;

/** `results` of delete-campaign-group. */
export const deleteCampaignGroupResultsSchema = z.strictObject({
  campaign_group: campaignGroupRecordSchema,
  result_type: z.literal("delete-campaign-group"),
});
export type DeleteCampaignGroupResults = z.infer<typeof deleteCampaignGroupResultsSchema>;

/** The whole success body of delete-campaign-group. */
export const deleteCampaignGroupResponseSchema = successEnvelope(deleteCampaignGroupResultsSchema);

/** delete-campaign-group: removes the group `id`, keeping its campaigns (unknown parameters are ignored). */
export const deleteCampaignGroupCall = defineCall({
  name: "delete-campaign-group",
  method: "DELETE",
  path: "/internal/delete-campaign-group",
  summary: "Delete a campaign group",
  description:
    "Removes the campaign group id; its campaigns are kept and taken out of the group. Needs DELETE access to the " +
    "group's chain; an unknown group and one of a chain the admin cannot delete in answer alike (68). Available from " +
    "API version 1.0 (an older version gets 544, as a path nothing serves).",
  params: { id: param(z.int(), { missing: "parameter_missing", invalid: "parameter_invalid" }) },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "http_request_method_non_DELETE_not_allowed", "resource_not_found"],
  results: deleteCampaignGroupResultsSchema,
});
