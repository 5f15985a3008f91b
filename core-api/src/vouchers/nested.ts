/**
 * Nested resources of a voucher response (handbook, "recursion level": a nested resource is
 * rendered at level - 1 with its own declaration). parent_voucher and
 * redemption_exclusive_business are level-2 properties with declared resources, so from response
 * level 2 on they are loaded and rendered as vouchers / businesses, each with what it nests in
 * turn one level further down (a parent's parent, a business's chain) until a level renders a
 * bare `{id}`. The other references (campaign, user, currency, ...) have no declared resource yet
 * and render as `{id}` without a query.
 */
import { and, eq, inArray } from "drizzle-orm";
import { businessRecord } from "../businesses/record.ts";
import { loadChainRecord } from "../chains/nested-record.ts";
import type { CoreDb } from "../db/client.ts";
import type { ResourceRecord } from "../db/resource-columns.ts";
import { businesses } from "../db/schema.ts";
import { toVoucherRecord, voucherDeclaration, type NestedRecords, type VoucherRow } from "./record.ts";
import { findVouchersByIds } from "./repository.ts";

/**
 * Loads what `rows`, rendered at response level `level`, show nested: two queries for the
 * parents and the exclusive businesses (none below level 2), then the same one level down for
 * what those show.
 * @returns the parent vouchers and exclusive businesses by id (deleted ones included: they are
 *   history); empty below the level at which those properties render beyond `{id}`
 */
export async function loadNestedRecords(db: CoreDb, chainId: number, rows: readonly VoucherRow[], level: number): Promise<NestedRecords> {
  // Shown from the property's level on; rendered at level - 1, so beyond `{id}` only when that is > 0.
  const loaded = (prop: string) => level >= voucherDeclaration.properties.get(prop)!.level && level - 1 > 0;
  const ids = (pick: (r: VoucherRow) => number | null) => [...new Set(rows.map(pick).filter((id): id is number => id !== null))];

  const parentIds = loaded("parent_voucher") ? ids((r) => r.parentVoucherId) : [];
  const businessIds = loaded("redemption_exclusive_business") ? ids((r) => r.redemptionExclusiveBusinessId) : [];
  const [parents, shops] = await Promise.all([
    findVouchersByIds(db, chainId, parentIds),
    businessIds.length === 0
      ? []
      : db.select().from(businesses).where(and(eq(businesses.chainId, chainId), inArray(businesses.id, businessIds))),
  ]);
  const [parentsNested, chain] = await Promise.all([
    parents.length === 0 ? {} : loadNestedRecords(db, chainId, parents, level - 1),
    shops.length === 0 ? { id: chainId } : loadChainRecord(db, chainId, level - 1),
  ]);
  return {
    parentVouchers: new Map<number, ResourceRecord>(parents.map((p) => [p.id, toVoucherRecord(p, parentsNested)])),
    businesses: new Map<number, ResourceRecord>(shops.map((b) => [b.id, businessRecord(b, chain)])),
  };
}
