/**
 * `POST /internal/add-business` (spec, "Internal call: add-business"), declared once: its
 * parameters, errors and results, with the business record of the internal calls.
 *
 * Besides the parameters the spec lists, add-business takes the contact parameters whose errors
 * it lists (description 125, email_address 135, phone_number 136, fax_number 137, website_url
 * 138, socialnetwork_a_url / _b_url / _c_username 139-141), programme_opted_in (316) and
 * business_id (the other identifier of update_if_exists).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { businessLocationParams, businessName, businessTextParams, placeIdParam, reviewUrlParam } from "./business-fields.ts";
import { defineCall, param } from "./call.ts";
import { responseDateTime } from "./param-values.ts";

/** A coordinate as the write calls return it: decimal text such as `"52.3791"`. */
const decimalText = z.string().regex(/^-?\d+(?:\.\d+)?$/, "must be decimal text");

/**
 * The business record of add-business: exactly the spec's keys. `format` and `business_format`
 * both carry the business format; `opening_times` is the JSON text as stored.
 */
export const internalBusinessSchema = z.strictObject({
  address_1: z.string().nullable(),
  address_2: z.string().nullable(),
  address_3: z.string().nullable(),
  business_format: z.string().nullable(),
  chain_id: z.number().int(),
  created_date: responseDateTime,
  countrycode: z.string().length(2).nullable(),
  deleted: z.boolean(),
  /** admin user id */
  deleted_by: z.number().int().nullable(),
  email_address: z.string().nullable(),
  format: z.string().nullable(),
  google_place_id: z.string().nullable(),
  id: z.number().int(),
  image_url: z.string().nullable(),
  is_shut_down: z.boolean(),
  last_modified_date: responseDateTime,
  latitude: decimalText.nullable(),
  longitude: decimalText.nullable(),
  name: z.string(),
  opening_times: z.string().nullable(),
  owner_code: z.string().nullable(),
  phone_number: z.string().nullable(),
  postalcode: z.string().nullable(),
  programme_opted_in: z.boolean(),
  region: z.string().nullable(),
  towncity: z.string().nullable(),
  review_url: z.string().nullable(),
  type: z.literal("business"),
  website_url: z.string().nullable(),
});
export type InternalBusiness = z.infer<typeof internalBusinessSchema>;

/** `results` of add-business. */
export const addBusinessResultsSchema = z.strictObject({
  business: internalBusinessSchema,
  result_type: z.literal("add-business"),
});
export type AddBusinessResults = z.infer<typeof addBusinessResultsSchema>;

/** The whole success body of add-business. */
export const addBusinessResponseSchema = successEnvelope(addBusinessResultsSchema);

/**
 * add-business: creates a business of a chain, or with `update_if_exists` updates the live
 * business of that chain named by `business_id`, else by `owner_code` (unknown parameters are
 * ignored). Parameters in the order they are checked.
 */
export const addBusinessCall = defineCall({
  name: "add-business",
  method: "POST",
  path: "/internal/add-business",
  summary: "Create a business (or update it with update_if_exists)",
  description:
    "Creates a business of the chain; with update_if_exists true, the live business of the chain named by business_id, " +
    "else by owner_code, is updated instead (only the parameters given change). A new business starts with " +
    "is_shut_down false and programme_opted_in true. Needs write access to the chain.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    update_if_exists: param(z.boolean().default(false), { invalid: "parameter_supplied_not_boolean", description: "update the business named by business_id or owner_code when it exists" }),
    business_id: param(z.int(), { invalid: "business_id_invalid", description: "the business update_if_exists updates (before owner_code)" }).optional(),
    name: param(businessName(), { missing: "http_vars_missing", invalid: "business_name_invalid" }),
    ...businessTextParams,
    google_place_id: placeIdParam(),
    review_url: reviewUrlParam(255),
    ...businessLocationParams({ latitude: "latitude_value_error", longitude: "longitude_value_error" }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "lat_long_both_required", "postalcode_invalid", "business_already_exists", "http_request_method_non_POST_not_allowed"],
  results: addBusinessResultsSchema,
});
