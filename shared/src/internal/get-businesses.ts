/**
 * Contract of `GET /internal/get-businesses` (spec, "Internal call: get-businesses", "List
 * parameters", "Limits"): its params, limits and results.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { internalBusinessSchema } from "./add-business.ts";
import { booleanValue, decimalValue, integerValue } from "./param-values.ts";

/** Page size when `limit` is absent, and the largest accepted. */
export const GET_BUSINESSES_DEFAULT_LIMIT = 500;
export const GET_BUSINESSES_MAX_LIMIT = 500;
/** Search radius in kilometres when coordinates come without one. */
export const DEFAULT_RADIUS_KM = 25;
/** Most characters of the `name` search, the `owner_code` search and a `search[...]` value. */
export const SEARCH_TEXT_MAX = { name: 255, owner_code: 64, search: 255 } as const;
/** The fields of `search[{field}]`: `*` searches name and owner_code together. */
export const SEARCH_FIELDS = ["name", "owner_code", "*"] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

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

const text = (max: number) => z.string().max(max);

/**
 * Parameters of get-businesses (query string). A search field may also be sent as a JSON object
 * `search: {name: "..."}`; only one search field per request.
 */
export const getBusinessesParamsSchema = z.object({
  chain_id: integerValue,
  /** word-prefix search on names; wins over owner_code */
  name: text(SEARCH_TEXT_MAX.name).optional(),
  /** word-prefix search on owner codes */
  owner_code: text(SEARCH_TEXT_MAX.owner_code).optional(),
  "search[name]": text(SEARCH_TEXT_MAX.search).optional(),
  "search[owner_code]": text(SEARCH_TEXT_MAX.search).optional(),
  "search[*]": text(SEARCH_TEXT_MAX.search).optional(),
  /** default false: any term matches */
  match_all: booleanValue.optional(),
  /** degrees; alias `lat` */
  search_lat: decimalValue.optional(),
  lat: decimalValue.optional(),
  /** degrees; alias `lon` */
  search_long: decimalValue.optional(),
  lon: decimalValue.optional(),
  /** kilometres, > 0, default 25; aliases `search_radius`, `search_radius_km` */
  radius: decimalValue.optional(),
  search_radius: decimalValue.optional(),
  search_radius_km: decimalValue.optional(),
  /** default false */
  exclude_inactive: booleanValue.optional(),
  /** 1..500, default 500 */
  limit: integerValue.optional(),
  /** >= 0, default 0 */
  offset: integerValue.optional(),
});
export type GetBusinessesParams = z.input<typeof getBusinessesParamsSchema>;

/** `results` of get-businesses. */
export const getBusinessesResultsSchema = z.strictObject({
  businesses: z.array(listedBusinessSchema),
  result_type: z.literal("get-businesses"),
});
export type GetBusinessesResults = z.infer<typeof getBusinessesResultsSchema>;

/** The whole success body of get-businesses. */
export const getBusinessesResponseSchema = successEnvelope(getBusinessesResultsSchema);
