/**
 * Business in the Resources API (spec, "Business", "Location search", "Resource-specific
 * behaviour"): the adapter between the generic engine and the business repository / search.
 *
 * Property <-> column mapping is the business's storage mapping (businesses/business-columns.ts), derived
 * from the declaration and checked when it loads; the search (businesses/search.ts) filters and
 * sorts on any column, so a new F or S property needs its declaration line and its column only.
 */
import { businessResource } from "@service/shared/resources/business";
import { and, eq } from "drizzle-orm";
import { businessColumns, businessRecord } from "../businesses/business-columns.ts";
import {
  deleteBusiness,
  findBusinessById,
  findBusinessByOwnerCode,
  insertBusiness,
  updateBusiness,
  type BusinessChanges,
  type BusinessRow,
  type BusinessValues,
} from "../businesses/business-repository.ts";
import { searchBusinesses, type BusinessColumn, type BusinessSearch, type TextField } from "../businesses/search.ts";
import { searchTermsOf } from "../businesses/text.ts";
import { loadChainRecord } from "../chains/nested-record.ts";
import { businesses } from "../db/schema.ts";
import type { Identifier, ResourceAdapter } from "./engine.ts";
import type { ListQuery } from "./list-params.ts";
import type { ResourceScope } from "./request-scope.ts";
import type { ResourceRecord } from "./render.ts";

/** The Business adapter of the engine. */
export const businessAdapter: ResourceAdapter = {
  declaration: businessResource,

  async findOne(scope, by) {
    const row = await findRow(scope, by);
    return row ? businessRecord(row, await nestedChain(scope)) : null;
  },

  async list(scope, q) {
    // The chain filter can only name the header chain: every business listed belongs to it.
    const chainFilter = q.filters.chain;
    if (chainFilter !== undefined && chainFilter !== scope.chainId) return { records: [], total: 0 };
    const { hits, total = 0 } = await searchBusinesses(scope.db, toSearch(scope.chainId, q));
    const chain = await nestedChain(scope);
    const records = hits.map((h) => {
      const record = businessRecord(h.row, chain);
      if (q.location) record.business_distance_km = h.distanceKm;
      return record;
    });
    return { records, total };
  },

  async create(scope, values) {
    const row = await insertBusiness(
      scope.db,
      { ...(businessColumns.toColumns(values) as BusinessValues), chainId: scope.chainId, lastUpdatedBy: scope.actorAdminId },
      scope.now,
    );
    return businessRecord(row, await nestedChain(scope));
  },

  async update(scope, target, values) {
    // The chain is immutable (the engine refuses it), so no chainId comes out of the mapping here.
    const changes: BusinessChanges = { ...businessColumns.toColumns(values), lastUpdatedBy: scope.actorAdminId };
    const row = await updateBusiness(scope.db, scope.chainId, target.id as number, changes, scope.now);
    return row ? businessRecord(row, await nestedChain(scope)) : null;
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
    return row ? businessRecord(row, await nestedChain(scope)) : null;
  },
};

/**
 * The chain a business nests, loaded only when the caller may read the chain (a shopper or a
 * read_businesses token sees its `{id}` alone: resources/read-view.ts), so no query is made for it.
 */
function nestedChain(scope: ResourceScope): Promise<ResourceRecord> {
  return loadChainRecord(scope.db, scope.chainId, scope.view.reading("chain") === "none" ? 1 : scope.recursionLevel, scope.chain);
}

async function findRow(scope: ResourceScope, by: Identifier): Promise<BusinessRow | null> {
  if (by.property === "id") return findBusinessById(scope.db, scope.chainId, by.value as number);
  if (by.property === "owner_code") return findBusinessByOwnerCode(scope.db, scope.chainId, String(by.value));
  throw new Error(`business: no lookup by ${by.property}`);
}

/** A list query as a business search; text search orders by relevance (after distance). */
export function toSearch(chainId: number, q: ListQuery): BusinessSearch {
  const filters: BusinessSearch["filters"] = {};
  for (const [prop, value] of Object.entries(q.filters)) {
    // The chain filter is answered by the adapter (only the header chain can match).
    if (prop !== "chain") filters[businessColumns.properties.get(prop)!.key as BusinessColumn] = value;
  }
  const terms = searchTermsOf(q.search?.query);
  return {
    chainId,
    filters,
    ...(q.search && terms
      ? { text: { terms, fields: q.search.properties as TextField[], matchAll: q.search.matchAll }, orderByRelevance: true }
      : {}),
    ...(q.location ? { location: q.location } : {}),
    sort: q.sort ? { column: businessColumns.properties.get(q.sort.property)!.key as BusinessColumn, order: q.sort.order } : { column: "id", order: q.order },
    limit: q.limit,
    offset: q.offset,
  };
}
