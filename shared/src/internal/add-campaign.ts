/**
 * `POST /internal/add-campaign` (spec, "Campaign"; the campaigns' minimal home so that change
 * logs arise), declared once: its parameters, errors and results, with the campaign record and
 * the parameters shared by add-campaign and alter-campaign.
 *
 * Datetime parameters (active_date_from, active_date_until) take RFC 3339 with a zone
 * (`2026-11-21T10:00:00Z`, `2026-11-21T11:00:00+01:00`) or `YYYY-MM-DD HH:MM:SS` read as UTC
 * (`parseDateTime`, the rule of both API families); an empty value or null means no date.
 * Campaigns are stored to the second: fractional seconds are dropped.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { defineCall, param } from "./call.ts";
import { dateTimeText, responseDateTime, text } from "./param-values.ts";

/** Most characters of a campaign title. */
export const CAMPAIGN_TITLE_MAX = 255;

/** The campaign fields both write calls take, in the order they are checked (title's requiredness is the call's). */
export const campaignFieldParams = {
  is_active: param(z.boolean(), { invalid: "parameter_supplied_not_boolean" }).optional(),
  active_date_from: param(dateTimeText().nullable(), { invalid: "parameter_invalid", description: "start of the active period; must not lie after active_date_until" }).optional(),
  active_date_until: param(dateTimeText().nullable(), { invalid: "parameter_invalid", description: "end of the active period" }).optional(),
};

/** The campaign title: 1-255 characters; 482 when longer, 419 when empty or not text. */
export const campaignTitle = () => text(CAMPAIGN_TITLE_MAX);


/** The campaign record of the campaign calls; datetimes per `X-Service-API-version`. */
export const campaignRecordSchema = z.strictObject({
  id: z.int(),
  chain_id: z.int(),
  title: z.string(),
  is_active: z.boolean(),
  active_date_from: responseDateTime.nullable(),
  active_date_until: responseDateTime.nullable(),
  created_date: responseDateTime,
  last_modified_date: responseDateTime,
});
export type CampaignRecord = z.infer<typeof campaignRecordSchema>;

/** `results` of add-campaign. */
export const addCampaignResultsSchema = z.strictObject({
  campaign: campaignRecordSchema,
  result_type: z.literal("add-campaign"),
});
export type AddCampaignResults = z.infer<typeof addCampaignResultsSchema>;

/** The whole success body of add-campaign. */
export const addCampaignResponseSchema = successEnvelope(addCampaignResultsSchema);

/** add-campaign: creates a campaign of a chain and records its creation in the change log (unknown parameters are ignored). */
export const addCampaignCall = defineCall({
  name: "add-campaign",
  method: "POST",
  path: "/internal/add-campaign",
  summary: "Create a campaign",
  description: "Creates a campaign of the chain (inactive and without dates unless given) and records its creation in the change log. Needs write access to the chain.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    title: param(campaignTitle(), { missing: "http_vars_missing", invalid: "parameter_invalid", length: "string_parameter_too_long" }),
    ...campaignFieldParams,
    is_active: param(z.boolean().default(false), { invalid: "parameter_supplied_not_boolean" }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "http_request_method_non_POST_not_allowed"],
  results: addCampaignResultsSchema,
});
