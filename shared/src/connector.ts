/**
 * Contracts of the webshop connector (spec, "Webshop connector endpoints"): the user_info sent to
 * `update`, the webshop customer object it returns, the user info object of the three reads, and
 * the authenticate request/response. Declared once here; the connector validates with them and
 * the core API builds its requests from the same types.
 */
import { z } from "zod";
import { userInfoFields, userInfoSchema } from "./user-info.ts";

export { USER_GENDERS, type UserGender } from "./user-info.ts";

/** An id that JSON clients send either as a number or as a digit string. */
export const numericId = z.union([
  z.number().int().positive(),
  z.string().regex(/^[1-9][0-9]{0,17}$/, "must be a positive integer").transform(Number),
]);

/**
 * An identifier of the user_info (user_id, or get-user's id): a numeric id, or blank. Blank ("",
 * spaces) reads as null, "unknown to the sender", so the update skips it exactly as it skips a
 * blank member_number (an identifier is never cleared).
 */
const userIdentifier = z.union([numericId, z.string().trim().length(0).transform(() => null)]).nullable().optional();

const flag = z.boolean().nullable().optional();

/** A field of the user info object as a sender may give it: optional, text trimmed first. */
const asSent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === "string" ? v.trim() : v), schema).optional();
type Sent<F extends Record<string, z.ZodType>> = { [K in keyof F]: ReturnType<typeof asSent<F[K]>> };
const sentFields = Object.fromEntries(Object.entries(userInfoFields).map(([k, s]) => [k, asSent(s)])) as Sent<typeof userInfoFields>;

/**
 * `user_info` of `POST /rest/V1/service/customer/update`: the user info object (user-info.ts,
 * the get-user response) with every key optional and texts trimmed. The keys and their types come
 * from that one declaration; the connector is lenient only where older senders differ from it
 * (the overrides below), and any key it does not know is accepted and ignored (it consumes a
 * wider object). A key that is absent leaves the customer's value unchanged; null or "" clears it.
 *
 * Leniency beyond the user info object: identifiers as digit strings or numbers (`user_id: "12"`,
 * `member_number: 77`), blank identifiers, "" for username and gender, a lower-case country code,
 * a house number as a number, a birthday as an ISO 8601 date-time, an entity_code or nested
 * flags given in part, `password`, the dates in any form (the platform's to set), and the
 * mailing/programme flags also flat (as the connector's own user info reads return them).
 *
 * Identification keys, in order: user_id (falls back to `id`, get-user's name for the same
 * thing), member_number, username (the email), authentication_point_identifier (the webshop
 * customer id when the webshop is the chain's authentication point). Flags may come nested as
 * get-user sends them (`mailing_list.*`, `opt_in_programme.*`) or flat; the nested form wins.
 */
export const userInfoInputSchema = z.object(sentFields).extend({
  id: userIdentifier,
  user_id: userIdentifier,
  member_number: z.union([z.string().trim().max(64), z.number().int().nonnegative().transform(String)])
    .nullable().optional(),
  username: z.union([z.literal(""), z.email().max(255)]).nullable().optional(),
  authentication_point_identifier: z.union([z.string().trim().max(255), z.number().int().transform(String)])
    .nullable().optional(),
  birthday: z.string().trim()
    .regex(/^(\d{4}-\d{2}-\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$|^$/,
      "must be an ISO 8601 date (YYYY-MM-DD) or date-time")
    .nullable().optional(),
  gender: z.union([userInfoFields.gender.unwrap(), z.literal("")]).nullable().optional(),
  address_housenumber: z.union([z.string().trim().max(64), z.number().int().transform(String)]).nullable().optional(),
  country_code: z.union([z.literal(""), z.string().trim().toUpperCase().regex(/^[A-Z]{2}$/, "must be ISO 3166-1 alpha-2")])
    .nullable().optional(),
  entity_code: z.object({ code: z.string().nullable().optional(), type: z.string().nullable().optional() })
    .nullable().optional(),
  mailing_list: z.object({
    mailing_list_sub_offered: flag,
    mailing_list_subscribed: flag,
    printed_mailing_list_subscribed: flag,
  }).nullable().optional(),
  opt_in_programme: z.object({ programme_opted_in: flag }).nullable().optional(),
  created_date: z.unknown().optional(),
  last_modified_date: z.unknown().optional(),
  password: z.string().min(1).max(256).nullable().optional(),
  mailing_list_sub_offered: flag,
  mailing_list_subscribed: flag,
  printed_mailing_list_subscribed: flag,
  programme_opted_in: flag,
});
export type UserInfoInput = z.infer<typeof userInfoInputSchema>;

/** Body of `POST /rest/V1/service/customer/update`. */
export const updateCustomerRequestSchema = z.object({
  user_info: userInfoInputSchema,
  create_if_not_exists: z.boolean().default(false),
  service_chain_id: numericId.nullable().optional(),
  website_code: z.string().trim().min(1).max(32).nullable().optional(),
  store_code: z.string().trim().min(1).max(32).nullable().optional(),
});
export type UpdateCustomerRequest = z.infer<typeof updateCustomerRequestSchema>;

/** Body of `POST /rest/V1/service/customer/authenticate`. */
export const authenticateRequestSchema = z.object({
  email: z.string().trim().min(1).max(255),
  password: z.string().min(1).max(256),
  service_chain_id: numericId.nullable().optional(),
});
export type AuthenticateRequest = z.infer<typeof authenticateRequestSchema>;

/** Response of authenticate; a failure has `authenticated: false`, null ids and a message. */
export const authenticateResponseSchema = z.object({
  authenticated: z.boolean(),
  customer_id: z.number().int().nullable(),
  message: z.string().nullable(),
  website_code: z.string().nullable(),
  store_code: z.string().nullable(),
});
export type AuthenticateResponse = z.infer<typeof authenticateResponseSchema>;

/** Region object of a customer address (Magento's `RegionInterface`). */
export const customerRegionSchema = z.object({
  region_code: z.string().nullable(),
  region: z.string().nullable(),
  region_id: z.number().int().nullable(),
});

/** Address object of the customer object (Magento's `AddressInterface`, street as lines). */
export const customerAddressSchema = z.strictObject({
  id: z.number().int(),
  customer_id: z.number().int(),
  region: customerRegionSchema,
  region_id: z.number().int().nullable(),
  country_id: z.string().nullable(),
  street: z.array(z.string()),
  telephone: z.string().nullable(),
  postcode: z.string().nullable(),
  city: z.string().nullable(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  default_shipping: z.boolean(),
  default_billing: z.boolean(),
});
export type CustomerAddress = z.infer<typeof customerAddressSchema>;

/** Our data on a customer: `extension_attributes.service_data`. */
export const serviceDataSchema = z.strictObject({
  customer_id: z.number().int(),
  user_id: z.number().int().nullable(),
  member_number: z.string().nullable(),
  programme_opted_in: z.boolean().nullable(),
  mailing_list_subscribed: z.boolean().nullable(),
  printed_mailing_list_subscribed: z.boolean().nullable(),
  /** see node/user-info-hash.ts */
  last_hash: z.string().nullable(),
});
export type ServiceData = z.infer<typeof serviceDataSchema>;

/**
 * The webshop customer object returned by update (Magento's `CustomerInterface` as its REST API
 * renders it: datetimes `YYYY-MM-DD HH:MM:SS` UTC, default_billing/default_shipping as id strings).
 */
export const customerSchema = z.strictObject({
  id: z.number().int(),
  group_id: z.number().int(),
  default_billing: z.string().nullable(),
  default_shipping: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  created_in: z.string().nullable(),
  dob: z.string().nullable(),
  email: z.string(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
  /** 1 male, 2 female, 3 not specified; null when unknown */
  gender: z.number().int().nullable(),
  store_id: z.number().int(),
  website_id: z.number().int(),
  addresses: z.array(customerAddressSchema),
  disable_auto_group_change: z.number().int(),
  extension_attributes: z.strictObject({
    is_subscribed: z.boolean(),
    service_data: serviceDataSchema,
  }),
});
export type Customer = z.infer<typeof customerSchema>;

/**
 * The user info object of the by-id and by-email reads (exactly the spec's keys): the fields of
 * the user info object (user-info.ts) the webshop keeps, the webshop customer id, and the
 * mailing/programme flags flat.
 */
export const userInfoObjectSchema = userInfoSchema
  .pick({
    first_name: true, last_name: true, birthday: true, username: true, gender: true,
    address_streetname: true, address_housenumber: true, address_housenumber_extension: true,
    address_postalcode: true, address_towncity: true, country_code: true, phone_number: true,
  })
  .extend({
    webshop_customer_id: z.number().int(),
    printed_mailing_list_subscribed: z.boolean(),
    mailing_list_subscribed: z.boolean(),
    mailing_list_sub_offered: z.boolean(),
    programme_opted_in: z.boolean(),
  });
export type UserInfoObject = z.infer<typeof userInfoObjectSchema>;

/** Magento REST error body: `{"message": "...", "parameters": {...}}`. */
export const connectorErrorBodySchema = z.object({
  message: z.string(),
  parameters: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type ConnectorErrorBody = z.infer<typeof connectorErrorBodySchema>;
