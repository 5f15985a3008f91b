/**
 * Nested resources of a voucher response (handbook, "recursion level": a nested resource is
 * rendered at level - 1 with its own declaration). parent_voucher and
 * redemption_exclusive_business are level-2 properties with declared resources, so from response
 * level 2 on they are loaded and rendered as vouchers / businesses, each with what it nests in
 * turn one level further down (a parent's parent, a business's chain) until a level renders a
 * bare `{id}`. The other references (campaign, user, currency, ...) have no declared resource yet
 * and render as `{id}` without a query.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";
import { businessRecord } from "../businesses/business-columns.ts";
import type { BusinessRow } from "../businesses/business-repository.ts";
import { loadChainRecord } from "../chains/nested-record.ts";
import type { CoreDb } from "../db/client.ts";
import type { ResourceRecord } from "../db/resource-columns.ts";
import { businesses, vouchers } from "../db/schema.ts";
import { toVoucherRecord, voucherDeclaration, type NestedRecords, type VoucherRow } from "./voucher-columns.ts";

/** The parent voucher, joined to the voucher that names it. */
const PARENT = alias(vouchers, "parent_voucher");

/**
 * Loads what `rows`, rendered at response level `level`, show nested: one query joins the rows
 * to their parent vouchers and exclusive businesses (none below level 2, so a GET by id is the
 * authentication, the row and this), then the same one level down for what those show.
 * @param opts.chainShown whether the caller sees the chain beyond its `{id}` (default true); when
 *   not, the businesses' chain is not read
 * @returns the parent vouchers and exclusive businesses by id (deleted ones included: they are
 *   history); empty below the level at which those properties render beyond `{id}`
 */
export async function loadNestedRecords(
  db: CoreDb,
  chainId: number,
  rows: readonly VoucherRow[],
  level: number,
  opts: { chainShown?: boolean } = {},
): Promise<NestedRecords> {
  // Shown from the property's level on; rendered at level - 1, so beyond `{id}` only when that is > 0.
  const loaded = (prop: string) => level >= voucherDeclaration.properties.get(prop)!.level && level - 1 > 0;
  const wantParents = loaded("parent_voucher") && rows.some((r) => r.parentVoucherId !== null);
  const wantShops = loaded("redemption_exclusive_business") && rows.some((r) => r.redemptionExclusiveBusinessId !== null);
  if (!wantParents && !wantShops) return { parentVouchers: new Map(), businesses: new Map() };
  const found = await db
    .select({ parent: PARENT, business: businesses })
    .from(vouchers)
    .leftJoin(PARENT, wantParents ? and(eq(PARENT.id, vouchers.parentVoucherId), eq(PARENT.chainId, chainId)) : sql`false`)
    .leftJoin(businesses, wantShops ? and(eq(businesses.id, vouchers.redemptionExclusiveBusinessId), eq(businesses.chainId, chainId)) : sql`false`)
    .where(and(eq(vouchers.chainId, chainId), inArray(vouchers.id, rows.map((r) => r.id))));
  const parents = new Map<number, VoucherRow>();
  const shops = new Map<number, BusinessRow>();
  for (const { parent, business } of found) {
    if (parent) parents.set(parent.id, parent);
    if (business) shops.set(business.id, business);
  }
  const [parentsNested, chain] = await Promise.all([
    parents.size === 0 ? {} : loadNestedRecords(db, chainId, [...parents.values()], level - 1, opts),
    shops.size === 0 || opts.chainShown === false ? { id: chainId } : loadChainRecord(db, chainId, level - 1),
  ]);
  return {
    parentVouchers: new Map<number, ResourceRecord>([...parents.values()].map((p) => [p.id, toVoucherRecord(p, parentsNested)])),
    businesses: new Map<number, ResourceRecord>([...shops.values()].map((b) => [b.id, businessRecord(b, chain)])),
  };
}
