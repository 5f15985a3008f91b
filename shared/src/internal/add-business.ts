/**
 * Contract of `POST /internal/add-business` (spec, "Internal call: add-business"): its params
 * and its results, with the business record of the internal calls.
 *
 * Besides the parameters the spec lists, add-business takes the contact parameters whose errors
 * it lists (description 125, email_address 135, phone_number 136, fax_number 137, website_url
 * 138, socialnetwork_a_url / _b_url / _c_username 139-141), programme_opted_in (316) and
 * business_id (the other identifier of update_if_exists).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { ADD_BUSINESS_TEXT_PARAMS as T } from "./business-params.ts";
import { businessFieldParams } from "./business-fields.ts";
import { booleanValue, integerValue, textOf, textValue } from "./param-values.ts";

/** A coordinate as the write calls return it: decimal text such as `"52.3791"`. */
const decimalText = z.string().regex(/^-?\d+(?:\.\d+)?$/, "must be decimal text");
/** A datetime as formatted for the request's API version (RFC 3339 UTC from 1.6.8). */
const dateTime = z.string().regex(/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\dZ?$/, "must be a datetime");

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
  created_date: dateTime,
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
  last_modified_date: dateTime,
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

/** Parameters of add-business (form, multipart or JSON; unknown parameters are ignored). */
export const addBusinessParamsSchema = z.object({
  chain_id: integerValue,
  name: textOf(T.name).refine((s) => s.trim() !== "", "is required"),
  google_place_id: textValue(T.google_place_id).optional(),
  review_url: textValue(T.review_url).optional(),
  /** default false: when true and business_id or owner_code names a live business of the chain, it is updated */
  update_if_exists: booleanValue.optional(),
  business_id: integerValue.optional(),
  ...businessFieldParams,
});
export type AddBusinessParams = z.input<typeof addBusinessParamsSchema>;

/** `results` of add-business. */
export const addBusinessResultsSchema = z.strictObject({
  business: internalBusinessSchema,
  result_type: z.literal("add-business"),
});
export type AddBusinessResults = z.infer<typeof addBusinessResultsSchema>;

/** The whole success body of add-business. */
export const addBusinessResponseSchema = successEnvelope(addBusinessResultsSchema);
