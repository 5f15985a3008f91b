/**
 * Business in the Resources API (spec, "Business", "Location search", "Resource-specific
 * behaviour"): the adapter between the generic engine and the business repository / search.
 *
 * Property <-> column mapping is derived from the declaration (snake_case property = camelCase
 * drizzle column), so a new Business field needs its declaration line and its column only; the
 * module refuses to load when a declared property has no column or an F / S property has no
 * support in the search.
 */
import { businessResource } from "@service/shared/resources/business";
import { and, eq, getTableColumns } from "drizzle-orm";
import {
  deleteBusiness,
  findBusinessById,
  findBusinessByOwnerCode,
  insertBusiness,
  updateBusiness,
  type BusinessChanges,
  type BusinessRow,
  type BusinessValues,
} from "../businesses/repository.ts";
import { searchBusinesses, type BusinessSearch, type SortColumn, type TextField } from "../businesses/search.ts";
import { parseSearchTerms } from "../businesses/text.ts";
import { businesses } from "../db/schema.ts";
import { loadChainRecord } from "./chain.ts";
import type { Identifier, ResourceAdapter } from "./engine.ts";
import type { ListQuery } from "./list-params.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./scope.ts";
import type { WriteValues } from "./write.ts";

const decl = businessResource;

/** Properties that are not a plain column: the chain reference and the computed distance. */
const NOT_COLUMNS = new Set(["chain", "business_distance_km"]);
/** The filters and sort columns searchBusinesses supports (businesses/search.ts). */
const SEARCH_FILTERS = new Set(["id", "name", "ownerCode", "countryCode", "region", "towncity", "isShutDown"]);
const SORT_COLUMNS = new Set<string>(["id", "created_date", "last_modified_date"] satisfies SortColumn[]);
const TEXT_FIELDS = new Set<string>(["name", "owner_code"] satisfies TextField[]);

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

/** property name -> drizzle column key */
const COLUMNS: ReadonlyMap<string, keyof BusinessRow> = (() => {
  const columns = getTableColumns(businesses);
  const map = new Map<string, keyof BusinessRow>();
  for (const prop of decl.properties.values()) {
    if (NOT_COLUMNS.has(prop.name)) continue;
    const key = camel(prop.name);
    if (!(key in columns)) throw new Error(`business.${prop.name}: no column ${key} in businesses`);
    map.set(prop.name, key as keyof BusinessRow);
    if (prop.filter && !SEARCH_FILTERS.has(key)) throw new Error(`business.${prop.name}: searchBusinesses has no filter ${key}`);
  }
  for (const prop of decl.properties.values()) {
    if (prop.sort && !SORT_COLUMNS.has(prop.name)) throw new Error(`business.${prop.name}: searchBusinesses cannot sort by it`);
    if (prop.fulltext && !TEXT_FIELDS.has(prop.name)) throw new Error(`business.${prop.name}: no text search on it`);
  }
  return map;
})();

/** The Business adapter of the engine. */
export const businessAdapter: ResourceAdapter = {
  declaration: decl,

  async findOne(scope, by) {
    const row = await findRow(scope, by);
    return row ? toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level)) : null;
  },

  async list(scope, q) {
    // The chain filter can only name the header chain: every business listed belongs to it.
    const chainFilter = q.filters.chain;
    if (chainFilter !== undefined && chainFilter !== scope.chainId) return { records: [], total: 0 };
    const { hits, total } = await searchBusinesses(scope.db, toSearch(scope.chainId, q));
    const chain = await loadChainRecord(scope.db, scope.chainId, scope.level);
    const records = hits.map((h) => ({
      ...toRecord(h.row, chain),
      ...(q.location ? { business_distance_km: h.distanceKm } : {}),
    }));
    return { records, total };
  },

  async create(scope, values) {
    const row = await insertBusiness(
      scope.db,
      { ...(toColumns(values) as BusinessValues), chainId: scope.chainId, lastUpdatedBy: scope.actorAdminId },
      scope.now,
    );
    return toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level));
  },

  async update(scope, target, values) {
    const changes: BusinessChanges = { ...toColumns(values), lastUpdatedBy: scope.actorAdminId };
    const row = await updateBusiness(scope.db, scope.chainId, target.id as number, changes, scope.now);
    return row ? toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level)) : null;
  },

  async remove(scope, target) {
    const id = target.id as number;
    if (!(await deleteBusiness(scope.db, scope.chainId, id, scope.actorAdminId, scope.now))) return null;
    // The repository reads live businesses only; the deleted row is read here to answer with it.
    const [row] = await scope.db
      .select()
      .from(businesses)
      .where(and(eq(businesses.id, id), eq(businesses.chainId, scope.chainId)))
      .limit(1);
    return row ? toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level)) : null;
  },
};

async function findRow(scope: ResourceScope, by: Identifier): Promise<BusinessRow | null> {
  if (by.property === "id") return findBusinessById(scope.db, scope.chainId, by.value as number);
  if (by.property === "owner_code") return findBusinessByOwnerCode(scope.db, scope.chainId, String(by.value));
  throw new Error(`business: no lookup by ${by.property}`);
}

/** A stored row as a resource record (without business_distance_km, which only a location search gives). */
export function toRecord(row: BusinessRow, chain: ResourceRecord): ResourceRecord {
  const record: ResourceRecord = { chain };
  for (const [prop, key] of COLUMNS) record[prop] = row[key];
  return record;
}

/** Validated write values as column values (the chain is fixed by the scope, never changed here). */
function toColumns(values: WriteValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [prop, value] of Object.entries(values)) {
    const key = COLUMNS.get(prop);
    if (key) out[key] = value;
  }
  return out;
}

/** A list query as a business search; text search orders by relevance (after distance). */
export function toSearch(chainId: number, q: ListQuery): BusinessSearch {
  const filters: Record<string, unknown> = {};
  for (const [prop, value] of Object.entries(q.filters)) {
    if (prop !== "chain") filters[COLUMNS.get(prop)!] = value;
  }
  const terms = q.search ? parseSearchTerms(q.search.query) : [];
  return {
    chainId,
    filters: filters as BusinessSearch["filters"],
    ...(q.search && terms.length > 0
      ? { text: { terms, fields: q.search.properties as TextField[], matchAll: q.search.matchAll }, orderByRelevance: true }
      : {}),
    ...(q.location ? { location: q.location } : {}),
    sort: q.sort ? { column: q.sort.property as SortColumn, order: q.sort.order } : { column: "id", order: q.order },
    limit: q.limit,
    offset: q.offset,
  };
}
