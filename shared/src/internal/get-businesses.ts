/**
 * `GET /internal/get-businesses` (spec, "Internal call: get-businesses", "List parameters",
 * "Limits"), declared once: its parameters, limits, errors and results.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { DEFAULT_RADIUS_KM } from "../limits.ts";
import { internalBusinessSchema } from "./add-business.ts";
import { defineCall, param } from "./call.ts";
import { chars } from "./param-values.ts";

/** Page size when `limit` is absent, and the largest accepted. */
export const GET_BUSINESSES_DEFAULT_LIMIT = 500;
export const GET_BUSINESSES_MAX_LIMIT = 500;
/** Most characters of the `name` search, the `owner_code` search and a `search[...]` value. */
export const SEARCH_TEXT_MAX = { name: 255, owner_code: 64, search: 255 } as const;

/**
 * A business in the get-businesses list: the add-business record with numeric coordinates, plus
 * `business_distance_km` (kilometres from the search point) when the search has coordinates.
 */
export const listedBusinessSchema = internalBusinessSchema.extend({
  latitude: z.number().min(-90).max(90).nullable(),
  longitude: z.number().min(-180).max(180).nullable(),
  business_distance_km: z.number().nonnegative().optional(),
});
export type ListedBusiness = z.infer<typeof listedBusinessSchema>;

/** `results` of get-businesses. */
export const getBusinessesResultsSchema = z.strictObject({
  businesses: z.array(listedBusinessSchema),
  result_type: z.literal("get-businesses"),
});
export type GetBusinessesResults = z.infer<typeof getBusinessesResultsSchema>;

/** The whole success body of get-businesses. */
export const getBusinessesResponseSchema = successEnvelope(getBusinessesResultsSchema);

const TOO_LONG = { invalid: "parameter_invalid", length: "string_parameter_too_long" } as const;
const NUMBER = { invalid: "parameter_invalid" } as const;

/**
 * `search`: one search field, `search[name]`, `search[owner_code]` or `search[*]` (name and
 * owner_code together); results by relevance. An empty field is no search.
 */
const searchParam = z
  .strictObject({
    name: chars(SEARCH_TEXT_MAX.search),
    owner_code: chars(SEARCH_TEXT_MAX.search),
    "*": chars(SEARCH_TEXT_MAX.search),
  })
  .partial()
  .refine((s) => Object.values(s).filter((v) => v !== "").length <= 1, { message: "only one search field per request", params: { refusal: "format" } });

/**
 * get-businesses: the businesses of a chain by text and / or location search, paged (unknown
 * parameters are ignored). Text: a `search` field wins over `name`, which wins over
 * `owner_code`; terms are separated by spaces or commas. Location: within the radius, nearest
 * first, each business with `business_distance_km`.
 */
export const getBusinessesCall = defineCall({
  name: "get-businesses",
  method: "GET",
  path: "/internal/get-businesses",
  summary: "Search the businesses of a chain",
  description:
    "Lists the chain's live businesses in id order, or by relevance with a search field, or nearest first with " +
    "coordinates (text and location together: both must match, ordered by distance). Needs read access to the chain " +
    "or a read_businesses token.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    search: param(searchParam, { ...TOO_LONG, description: "search[name], search[owner_code] or search[*]: one field per request" }).optional(),
    name: param(chars(SEARCH_TEXT_MAX.name).nullable(), { ...TOO_LONG, description: "word-prefix search on names (id order)" }).optional(),
    owner_code: param(chars(SEARCH_TEXT_MAX.owner_code).nullable(), { ...TOO_LONG, description: "word-prefix search on owner codes (id order)" }).optional(),
    match_all: param(z.boolean().default(false), { invalid: "parameter_supplied_not_boolean", description: "true: every term must match; false: any" }),
    search_lat: param(z.number().min(-90).max(90), { ...NUMBER, range: "lat_long_invalid", aliases: ["lat"], description: "degrees; with search_long (98 lat_long_both_required)" }).optional(),
    search_long: param(z.number().min(-180).max(180), { ...NUMBER, range: "lat_long_invalid", aliases: ["lon"], description: "degrees; with search_lat" }).optional(),
    radius: param(z.number().positive(), {
      ...NUMBER,
      aliases: ["search_radius", "search_radius_km"],
      description: `kilometres; ${DEFAULT_RADIUS_KM} when coordinates come without it; needs coordinates (441 parameter_missing)`,
    }).optional(),
    exclude_inactive: param(z.boolean().default(false), { invalid: "parameter_supplied_not_boolean", description: "true leaves out shut-down businesses" }),
    limit: param(z.int().min(1).max(GET_BUSINESSES_MAX_LIMIT).default(GET_BUSINESSES_DEFAULT_LIMIT), { ...NUMBER, description: "page size" }),
    offset: param(z.int().min(0).default(0), { ...NUMBER, description: "businesses to skip" }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "lat_long_both_required", "parameter_missing", "http_request_method_non_GET_not_allowed"],
  results: getBusinessesResultsSchema,
});
