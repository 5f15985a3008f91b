/**
 * Nested resources of a voucher response (handbook, "recursion level": a nested resource is
 * rendered at level - 1 with its own declaration). parent_voucher and
 * redemption_exclusive_business are level-2 properties with declared resources, so from response
 * level 2 on they are loaded and rendered as vouchers / businesses; one level deep only: their own
 * references stay `{id}`. The other references (campaign, user, currency, ...) have no declared
 * resource yet and render as `{id}` without a query.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { businesses } from "../db/schema.ts";
import { toRecord as toBusinessRecord } from "../resources/business.ts";
import type { ResourceRecord } from "../resources/render.ts";
import { toVoucherRecord, voucherDeclaration, type NestedRecords, type VoucherRow } from "./record.ts";
import { findVouchersByIds } from "./repository.ts";

/**
 * Loads what `rows` show nested at response level `level`, two queries at most.
 * @returns the parent vouchers and exclusive businesses by id (deleted ones included: they are
 *   history); empty below the level at which those properties appear
 */
export async function loadNestedRecords(db: CoreDb, chainId: number, rows: readonly VoucherRow[], level: number): Promise<NestedRecords> {
  // Shown at all from the property's level; rendered beyond `{id}` only when level - 1 > 0.
  const shown = (prop: string) => level >= Math.max(voucherDeclaration.properties.get(prop)!.level, 2);
  const ids = (pick: (r: VoucherRow) => number | null) => [...new Set(rows.map(pick).filter((id): id is number => id !== null))];

  const parentIds = shown("parent_voucher") ? ids((r) => r.parentVoucherId) : [];
  const businessIds = shown("redemption_exclusive_business") ? ids((r) => r.redemptionExclusiveBusinessId) : [];
  const [parents, shops] = await Promise.all([
    findVouchersByIds(db, chainId, parentIds),
    businessIds.length === 0
      ? []
      : db.select().from(businesses).where(and(eq(businesses.chainId, chainId), inArray(businesses.id, businessIds))),
  ]);
  return {
    parentVouchers: new Map<number, ResourceRecord>(parents.map((p) => [p.id, toVoucherRecord(p)])),
    businesses: new Map<number, ResourceRecord>(shops.map((b) => [b.id, toBusinessRecord(b, { id: chainId })])),
  };
}
