/**
 * AllowedIpRange rows <-> Resources records (spec, "AllowedIpRange"): the range's storage mapping,
 * derived from the declaration by the rules of db/resource-columns.ts and checked when this
 * module loads. Every cidr that comes in (a written one, the `cidr` filter) is normalised first
 * (cidr.ts), so `192.168.1.77/24` finds the stored `192.168.1.0/24`; a malformed one is
 * parameter_invalid (419) before anything is read or written.
 */
import { allowedIpRangeResource } from "@service/shared/resources/allowed-ip-range";
import { resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { allowedIpRanges } from "../db/schema.ts";
import { normaliseCidr } from "./cidr.ts";

export type IpRangeRow = typeof allowedIpRanges.$inferSelect;

/** The range's storage mapping: cidr is normalised on the way in. */
export const ipRangeColumns = resourceColumns(allowedIpRangeResource, allowedIpRanges, {
  exceptions: {
    cidr: {
      write: (value) => ({ cidr: normaliseCidr(String(value)) }),
      filterValue: (value) => normaliseCidr(String(value)),
    },
  },
});

/**
 * A stored range as a resource record.
 * @param chain the chain record to nest under `chain` (see chains/nested-record.ts); the ranges
 *   listed under their chain (Chain.allowed_ip_ranges) nest that chain's own record
 */
export function ipRangeRecord(row: IpRangeRow, chain: ResourceRecord): ResourceRecord {
  return { ...ipRangeColumns.toRecord(row), chain };
}
