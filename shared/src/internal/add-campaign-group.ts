/**
 * `POST /internal/add-campaign-group` (the minimal home of campaign groups, so that
 * delete-campaign-group has something to delete), declared once: its parameters, errors and
 * results, with the campaign group record (spec, "Other records seen in internal call responses").
 *
 * A group holds campaigns by id (`campaign_ids`): in JSON an array of integers, in a form or JSON
 * text the ids separated by commas (`12,14`); an empty value or `[]` makes an empty group. Every
 * id must name a live campaign of the group's chain (an unknown id and another chain's campaign
 * answer alike, 246); an id given twice counts once.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { campaignFieldParams } from "./add-campaign.ts";
import { defineCall, param } from "./call.ts";
import { responseDateTime, text } from "./param-values.ts";

/** Most characters of a campaign group's name. */
export const CAMPAIGN_GROUP_NAME_MAX = 255;
/** Most campaigns one call may put in a group. */
export const CAMPAIGN_GROUP_MAX_CAMPAIGNS = 500;

const ID_LIST_TEXT = /^\d+(\s*,\s*\d+)*$/;

/**
 * `campaign_ids`: an array of campaign ids, or their text separated by commas; the value is the
 * ids in the order given, each once. Not integers: the `type` or `format` refusal; more than
 * CAMPAIGN_GROUP_MAX_CAMPAIGNS: the `length` refusal.
 */
export function campaignIdList() {
  const fromText = z
    .string()
    .trim()
    .refine((s) => ID_LIST_TEXT.test(s), { message: "must be campaign ids separated by commas", params: { refusal: "format" } })
    .transform((s) => s.split(",").map((id) => Number(id.trim())));
  return z
    .union([fromText, z.array(z.int())])
    .pipe(z.array(z.int().min(1)).max(CAMPAIGN_GROUP_MAX_CAMPAIGNS))
    .transform((ids) => [...new Set(ids)]);
}

/** One admin in a group's `last_updated_by`. */
export const groupUpdaterSchema = z.strictObject({ user_id: z.int(), name: z.string() });

/**
 * The campaign group record (spec, "Other records seen in internal call responses"); datetimes
 * per `X-Service-API-version`. `campaign_ids`: its live campaigns, ascending. `last_updated_by`:
 * the admin who last changed it (empty when a privileged token did), `name` their first and last
 * name, else their username.
 */
export const campaignGroupRecordSchema = z.strictObject({
  id: z.int(),
  campaign_ids: z.array(z.int()),
  created_date: responseDateTime,
  last_modified_date: responseDateTime,
  last_updated_by: z.array(groupUpdaterSchema),
  name: z.string(),
  active_date_from: responseDateTime.nullable(),
  active_date_until: responseDateTime.nullable(),
});
export type CampaignGroupRecord = z.infer<typeof campaignGroupRecordSchema>;

/** `results` of add-campaign-group. */
export const addCampaignGroupResultsSchema = z.strictObject({
  campaign_group: campaignGroupRecordSchema,
  result_type: z.literal("add-campaign-group"),
});
export type AddCampaignGroupResults = z.infer<typeof addCampaignGroupResultsSchema>;

/** The whole success body of add-campaign-group. */
export const addCampaignGroupResponseSchema = successEnvelope(addCampaignGroupResultsSchema);

/** add-campaign-group: creates a group of campaigns of a chain (unknown parameters are ignored). */
export const addCampaignGroupCall = defineCall({
  name: "add-campaign-group",
  method: "POST",
  path: "/internal/add-campaign-group",
  summary: "Create a campaign group",
  description:
    "Creates a group of the chain's campaigns campaign_ids (none unless given) with an optional active period. Needs " +
    "write access to the chain; a campaign id that names no live campaign of the chain is 246.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    name: param(text(CAMPAIGN_GROUP_NAME_MAX), { missing: "http_vars_missing", invalid: "parameter_invalid", length: "string_parameter_too_long" }),
    campaign_ids: param(campaignIdList().nullable(), {
      invalid: "campaign_id_invalid",
      length: "parameter_invalid",
      description: `campaign ids: a JSON array, or text separated by commas (at most ${CAMPAIGN_GROUP_MAX_CAMPAIGNS})`,
    }).optional(),
    active_date_from: campaignFieldParams.active_date_from,
    active_date_until: campaignFieldParams.active_date_until,
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "campaign_id_not_found", "http_request_method_non_POST_not_allowed"],
  results: addCampaignGroupResultsSchema,
});
