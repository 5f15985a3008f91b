/**
 * Voucher rows <-> Resources records (spec, "Voucher"): the voucher's storage mapping, derived
 * from the declaration by the rules of db/resource-columns.ts (every property is its own column,
 * a reference its `<name>Id` column), checked when this module loads. Pure.
 */
import { voucherResource } from "@service/shared/resources/voucher";
import { resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { vouchers } from "../db/schema.ts";

export type VoucherRow = typeof vouchers.$inferSelect;
export type VoucherColumns = Partial<typeof vouchers.$inferInsert>;

export const voucherDeclaration = voucherResource;

/** The voucher's storage mapping: no exceptions, every property is a column. */
export const voucherColumns = resourceColumns(voucherResource, vouchers);

/**
 * Nested resources loaded for rendering (see vouchers/nested.ts); a reference without an entry
 * renders as `{id}`.
 */
export interface NestedRecords {
  parentVouchers?: ReadonlyMap<number, ResourceRecord>;
  businesses?: ReadonlyMap<number, ResourceRecord>;
}

/** A stored row as a resource record: references as `{id}` (or the loaded nested record), dates as Date. */
export function toVoucherRecord(row: VoucherRow, nested: NestedRecords = {}): ResourceRecord {
  const record = voucherColumns.toRecord(row);
  if (row.parentVoucherId !== null) record.parent_voucher = nested.parentVouchers?.get(row.parentVoucherId) ?? record.parent_voucher;
  if (row.redemptionExclusiveBusinessId !== null) {
    record.redemption_exclusive_business = nested.businesses?.get(row.redemptionExclusiveBusinessId) ?? record.redemption_exclusive_business;
  }
  return record;
}

/**
 * Validated write values (API names, see resources/write.ts) as column values: a reference
 * becomes its id, a datetime text a Date in whole seconds (db/resource-columns.ts).
 */
export function toVoucherColumns(values: Record<string, unknown>): VoucherColumns {
  return voucherColumns.toColumns(values);
}
