/**
 * Voucher rows <-> Resources records (spec, "Voucher"). The mapping is derived from the
 * declaration: a property is the camelCase column of the same name, a reference (an object with
 * `id`) the column `<name>Id`; the module refuses to load when a declared property has no column.
 * Pure.
 */
import { parseDateTimeInput, voucherResource } from "@service/shared/resources/voucher";
import { getTableColumns } from "drizzle-orm";
import { vouchers } from "../db/schema.ts";
import type { ResourceRecord } from "../resources/render.ts";

export type VoucherRow = typeof vouchers.$inferSelect;
export type VoucherColumns = Partial<typeof vouchers.$inferInsert>;

export const voucherDeclaration = voucherResource;

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());

/** property name -> column key, and whether the property is a reference `{id}` */
export const VOUCHER_COLUMNS: ReadonlyMap<string, { column: keyof VoucherRow; reference: boolean }> = (() => {
  const columns = getTableColumns(vouchers);
  const map = new Map<string, { column: keyof VoucherRow; reference: boolean }>();
  for (const prop of voucherDeclaration.properties.values()) {
    const reference = prop.kind === "reference";
    const column = reference ? `${camel(prop.name)}Id` : camel(prop.name);
    if (!(column in columns)) throw new Error(`voucher.${prop.name}: no column ${column} in vouchers`);
    map.set(prop.name, { column: column as keyof VoucherRow, reference });
  }
  return map;
})();

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
  const record: ResourceRecord = {};
  for (const [prop, { column, reference }] of VOUCHER_COLUMNS) {
    const value = row[column];
    record[prop] = reference ? (value === null ? null : { id: value }) : value;
  }
  if (row.parentVoucherId !== null) record.parent_voucher = nested.parentVouchers?.get(row.parentVoucherId) ?? record.parent_voucher;
  if (row.redemptionExclusiveBusinessId !== null) {
    record.redemption_exclusive_business = nested.businesses?.get(row.redemptionExclusiveBusinessId) ?? record.redemption_exclusive_business;
  }
  return record;
}

/**
 * Validated write values (API names, see resources/write.ts) as column values: a reference
 * becomes its id, a datetime text a Date (whole seconds: the columns store no fractions, and
 * cutting them here keeps the response equal to what a later read returns).
 */
export function toVoucherColumns(values: Record<string, unknown>): VoucherColumns {
  const out: Record<string, unknown> = {};
  for (const [prop, value] of Object.entries(values)) {
    const entry = VOUCHER_COLUMNS.get(prop);
    if (!entry) continue;
    if (entry.reference) out[entry.column] = value === null ? null : (value as { id: number }).id;
    else if (voucherDeclaration.properties.get(prop)!.kind === "date-time" && typeof value === "string") out[entry.column] = toDate(value);
    else out[entry.column] = value;
  }
  return out as VoucherColumns;
}

function toDate(text: string): Date {
  const date = parseDateTimeInput(text);
  // validateWrite has already checked the text against the same parser.
  if (!date) throw new Error(`not a datetime: ${text}`);
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}
