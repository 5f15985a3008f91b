/**
 * `PUT /internal/alter-business` (spec, "Internal call: alter-business"), declared once: its
 * parameters, errors and results.
 *
 * Every parameter but business_id is optional: an absent parameter leaves the field unchanged, an
 * empty text clears a nullable field (name cannot be cleared). The defaults the spec names
 * (is_shut_down false, programme_opted_in true) are the values a new business starts with; alter
 * does not reset absent fields to them.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { internalBusinessSchema } from "./add-business.ts";
import { businessLocationParams, businessName, businessTextParams, placeIdParam, reviewUrlParam } from "./business-fields.ts";
import { defineCall, param } from "./call.ts";

/** The business record of alter-business: add-business's keys without the six the spec leaves out. */
export const alteredBusinessSchema = internalBusinessSchema.omit({
  deleted: true,
  deleted_by: true,
  format: true,
  is_shut_down: true,
  phone_number: true,
  programme_opted_in: true,
});
export type AlteredBusiness = z.infer<typeof alteredBusinessSchema>;

/** `results` of alter-business. */
export const alterBusinessResultsSchema = z.strictObject({
  business: alteredBusinessSchema,
  result_type: z.literal("alter-business"),
});
export type AlterBusinessResults = z.infer<typeof alterBusinessResultsSchema>;

/** The whole success body of alter-business. */
export const alterBusinessResponseSchema = successEnvelope(alterBusinessResultsSchema);

/** alter-business: changes the business `business_id` (unknown parameters are ignored). */
export const alterBusinessCall = defineCall({
  name: "alter-business",
  method: "PUT",
  path: "/internal/alter-business",
  summary: "Change a business",
  description:
    "Changes the given fields of the business business_id; an absent parameter leaves its field unchanged, an empty text " +
    "clears a nullable field. Needs write access to the business's chain; an unknown business and another chain's answer " +
    "alike (68).",
  params: {
    business_id: param(z.int(), { missing: "http_vars_missing", invalid: "business_id_invalid" }),
    name: param(businessName(), { invalid: "business_name_invalid", description: "cannot be emptied" }).optional(),
    ...businessTextParams,
    place_id: placeIdParam(["google_place_id"]),
    review_url: reviewUrlParam(512),
    ...businessLocationParams({ latitude: "business_latitude_invalid", longitude: "business_longitude_invalid" }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "lat_long_both_required", "postalcode_invalid", "business_already_exists", "http_request_method_non_PUT_not_allowed"],
  results: alterBusinessResultsSchema,
});
