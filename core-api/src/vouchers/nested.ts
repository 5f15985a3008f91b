/**
 * Nested resources of a voucher response (handbook, "recursion level": a nested resource is
 * rendered at level - 1 with its own declaration). parent_voucher and
 * redemption_exclusive_business are level-2 properties with declared resources, so from response
 * level 2 on they are loaded and rendered as vouchers / businesses; one level deep only: their own
 * references stay `{id}`. The other references (campaign, user, currency, ...) have no declared
 * resource yet and render as `{id}` without a query.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";
import type { CoreDb } from "../db/client.ts";
import { businesses, vouchers } from "../db/schema.ts";
import { toRecord as toBusinessRecord } from "../resources/business.ts";
import type { ResourceRecord } from "../resources/render.ts";
import { toVoucherRecord, voucherDeclaration, type NestedRecords, type VoucherRow } from "./record.ts";

/** The parent voucher, joined to the voucher that names it. */
const PARENT = alias(vouchers, "parent_voucher");

/**
 * Loads what `rows` show nested at response level `level`, in one query at most: the rows' own
 * vouchers joined to their parent vouchers and exclusive businesses (a GET by id is then the
 * authentication, the row and this).
 * @returns the parent vouchers and exclusive businesses by id (deleted ones included: they are
 *   history); empty below the level at which those properties appear
 */
export async function loadNestedRecords(db: CoreDb, chainId: number, rows: readonly VoucherRow[], level: number): Promise<NestedRecords> {
  // Shown at all from the property's level; rendered beyond `{id}` only when level - 1 > 0.
  const shown = (prop: string) => level >= Math.max(voucherDeclaration.properties.get(prop)!.level, 2);
  const parents = shown("parent_voucher") && rows.some((r) => r.parentVoucherId !== null);
  const shops = shown("redemption_exclusive_business") && rows.some((r) => r.redemptionExclusiveBusinessId !== null);
  if (!parents && !shops) return { parentVouchers: new Map(), businesses: new Map() };
  const found = await db
    .select({ parent: PARENT, business: businesses })
    .from(vouchers)
    .leftJoin(PARENT, parents ? and(eq(PARENT.id, vouchers.parentVoucherId), eq(PARENT.chainId, chainId)) : sql`false`)
    .leftJoin(businesses, shops ? and(eq(businesses.id, vouchers.redemptionExclusiveBusinessId), eq(businesses.chainId, chainId)) : sql`false`)
    .where(and(eq(vouchers.chainId, chainId), inArray(vouchers.id, rows.map((r) => r.id))));
  const parentVouchers = new Map<number, ResourceRecord>();
  const byId = new Map<number, ResourceRecord>();
  for (const { parent, business } of found) {
    if (parent) parentVouchers.set(parent.id, toVoucherRecord(parent));
    if (business) byId.set(business.id, toBusinessRecord(business, { id: chainId }));
  }
  return { parentVouchers, businesses: byId };
}
