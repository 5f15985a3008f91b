/**
 * MemberNumberRange rows <-> Resources records (resource `member_number_range`): the storage
 * mapping derived from the declaration (db/resource-columns.ts). `first` and `last` are decimal
 * strings in the API and BIGINT in the table.
 */
import { memberNumberRangeResource } from "@service/shared/resources/member-number-range";
import { resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { memberNumberRanges } from "../db/schema.ts";

export type MemberNumberRangeRow = typeof memberNumberRanges.$inferSelect;

const bigintBound = (key: "first" | "last") => ({
  key,
  column: memberNumberRanges[key],
  read: (row: MemberNumberRangeRow) => String(row[key]),
  write: (value: unknown) => ({ [key]: BigInt(String(value)) }),
});

/** The range's storage mapping. */
export const memberNumberRangeColumns = resourceColumns(memberNumberRangeResource, memberNumberRanges, {
  exceptions: { first: bigintBound("first"), last: bigintBound("last") },
});

/**
 * A stored range as a resource record.
 * @param chain the chain record to nest under `chain` (chains/nested-record.ts)
 */
export function memberNumberRangeRecord(row: MemberNumberRangeRow, chain: ResourceRecord): ResourceRecord {
  return { ...memberNumberRangeColumns.toRecord(row), chain };
}
