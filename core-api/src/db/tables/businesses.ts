/**
 * Businesses (spec, "Business (branch store)") and the indexes their searches read, each kept in
 * step with the businesses by every write (businesses/business-repository.ts): the word index of the text
 * search, its word counts, and the per-cell counts of the location search.
 */
import { sql } from "drizzle-orm";
import { boolean, char, double, index, int, mysqlTable, primaryKey, smallint, text, tinyint, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** A business: a physical store (branch) of a chain (spec, "Business"). */
export const businesses = mysqlTable(
  "businesses",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    name: varchar("name", { length: 255 }).notNull(),
    ownerCode: varchar("owner_code", { length: 64 }),
    /** owner_code while the business is not deleted: owner codes are unique among live businesses */
    activeOwnerCode: varchar("active_owner_code", { length: 64 }).generatedAlwaysAs(
      sql`IF(deleted = 0, owner_code, NULL)`,
      { mode: "stored" },
    ),
    address1: varchar("address_1", { length: 255 }),
    address2: varchar("address_2", { length: 255 }),
    address3: varchar("address_3", { length: 255 }),
    towncity: varchar("towncity", { length: 255 }),
    region: varchar("region", { length: 255 }),
    postalcode: varchar("postalcode", { length: 20 }),
    countryCode: char("country_code", { length: 2 }),
    latitude: double("latitude"),
    longitude: double("longitude"),
    /** location grid cell (see businesses/geo.ts); null without coordinates */
    geoCell: int("geo_cell"),
    phoneNumber: varchar("phone_number", { length: 32 }),
    faxNumber: varchar("fax_number", { length: 56 }),
    emailAddress: varchar("email_address", { length: 255 }),
    websiteUrl: varchar("website_url", { length: 255 }),
    description: varchar("description", { length: 512 }),
    businessFormat: varchar("business_format", { length: 64 }),
    googlePlaceId: varchar("google_place_id", { length: 1024 }),
    imageUrl: varchar("image_url", { length: 512 }),
    reviewUrl: varchar("review_url", { length: 512 }),
    /** JSON text of the opening_times shape (spec, add-business) */
    openingTimes: text("opening_times"),
    socialnetworkAUrl: varchar("socialnetwork_a_url", { length: 255 }),
    socialnetworkBUrl: varchar("socialnetwork_b_url", { length: 255 }),
    socialnetworkCUsername: varchar("socialnetwork_c_username", { length: 15 }),
    programmeOptedIn: boolean("programme_opted_in").notNull().default(true),
    chainMember: boolean("chain_member").notNull().default(true),
    isShutDown: boolean("is_shut_down").notNull().default(false),
    deleted: boolean("deleted").notNull().default(false),
    deletedBy: int("deleted_by"),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("businesses_unique_owner_code_per_chain").on(t.chainId, t.activeOwnerCode),
    index("businesses_location_search").on(t.chainId, t.geoCell, t.latitude, t.longitude),
    index("businesses_list_by_created").on(t.chainId, t.createdDate),
    index("businesses_list_by_modified").on(t.chainId, t.lastModifiedDate),
  ],
);

/**
 * Word index for the business text search (spec, "List parameters": partial / word-prefix).
 * One row per distinct normalised word of a business's name (field 1) or owner_code (field 2);
 * a term matches when a word starts with it: `token LIKE 'term%'` on this index.
 */
export const businessSearchTokens = mysqlTable(
  "business_search_tokens",
  {
    chainId: int("chain_id").notNull(),
    /** 1 = name, 2 = owner_code */
    field: tinyint("field").notNull(),
    token: varchar("token", { length: 64 }).notNull(),
    businessId: int("business_id").notNull(),
    /** the business's coordinates, copied so a text + location search never leaves this index */
    latitude: double("latitude"),
    longitude: double("longitude"),
    /** the business's location grid row (businesses/geo.ts); null without coordinates */
    geoRow: smallint("geo_row"),
    /**
     * Longest common prefix (characters) of this word with the business's earlier words of the
     * same field, in binary order: of the words matching a prefix of length L, exactly one per
     * business has lcp_prev < L, so counting matches needs no DISTINCT (businesses/search.ts).
     */
    lcpPrev: tinyint("lcp_prev").notNull().default(0),
  },
  (t) => [
    primaryKey({ name: "business_search_tokens_pk", columns: [t.chainId, t.field, t.token, t.businessId] }),
    index("business_search_tokens_by_business").on(t.businessId),
    // text only: the narrowest index holding word and business (the primary key's rows carry coordinates)
    index("business_search_tokens_by_word").on(t.chainId, t.field, t.token, t.lcpPrev),
    // text + location: one short word range per grid row the circle spans, coordinates included
    // so the distance is computed from the index alone
    index("business_search_tokens_by_row_and_word").on(t.chainId, t.field, t.geoRow, t.token, t.latitude, t.longitude),
  ],
);

/**
 * How many words of each (word, lcp_prev) the word index holds per chain and field, kept in step
 * with business_search_tokens by every write (businesses/business-repository.ts): the total of a prefix
 * search is the sum over the prefix's few distinct words instead of a count over every match.
 */
export const businessSearchWordCounts = mysqlTable(
  "business_search_word_counts",
  {
    chainId: int("chain_id").notNull(),
    field: tinyint("field").notNull(),
    token: varchar("token", { length: 64 }).notNull(),
    lcpPrev: tinyint("lcp_prev").notNull(),
    n: int("n").notNull(),
  },
  (t) => [primaryKey({ name: "business_search_word_counts_pk", columns: [t.chainId, t.field, t.token, t.lcpPrev] })],
);

/**
 * How many live businesses with coordinates each location grid cell holds per chain, kept in step
 * by every write (businesses/business-repository.ts): a radius search adds up the cells wholly inside the
 * circle instead of counting their businesses.
 */
export const businessGeoCellCounts = mysqlTable(
  "business_geo_cell_counts",
  {
    chainId: int("chain_id").notNull(),
    geoCell: int("geo_cell").notNull(),
    n: int("n").notNull(),
  },
  (t) => [primaryKey({ name: "business_geo_cell_counts_pk", columns: [t.chainId, t.geoCell] })],
);
