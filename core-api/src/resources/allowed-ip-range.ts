/**
 * AllowedIpRange in the Resources API (spec, "AllowedIpRange", "Authentication": writes need
 * super-user access): the adapter between the generic engine and ip-ranges/repository.ts.
 *
 * Every cidr that comes in (body, `?cidr=` identifier, `cidr` filter) is normalised first
 * (ip-ranges/cidr.ts), so `192.168.1.77/24` finds the stored `192.168.1.0/24`; a malformed one is
 * parameter_invalid (419) before anything is read or written.
 */
import { allowedIpRangeResource } from "@service/shared/resources/allowed-ip-range";
import { normaliseCidr } from "../ip-ranges/cidr.ts";
import {
  deleteIpRange,
  findIpRange,
  insertIpRange,
  listIpRanges,
  updateIpRange,
  type IpRangeListQuery,
  type IpRangeRow,
} from "../ip-ranges/repository.ts";
import { loadChainRecord } from "../chains/nested-record.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceRecord } from "./render.ts";

const decl = allowedIpRangeResource;

/** The AllowedIpRange adapter of the engine: reads need read access, every write super_user. */
export const allowedIpRangeAdapter: ResourceAdapter = {
  declaration: decl,
  access: { create: "super_user", update: "super_user", delete: "super_user" },

  async findOne(scope, by) {
    const key = by.property === "cidr" ? { cidr: normaliseCidr(String(by.value)) } : { id: by.value as number };
    const row = await findIpRange(scope.db, scope.chainId, key);
    return row ? toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level)) : null;
  },

  async list(scope, q) {
    const filters: IpRangeListQuery["filters"] = {};
    if (q.filters.id !== undefined) filters.id = q.filters.id as number;
    if (q.filters.cidr !== undefined) filters.cidr = normaliseCidr(String(q.filters.cidr));
    const { rows, total } = await listIpRanges(scope.db, scope.chainId, {
      filters,
      ...(q.sort ? { sort: q.sort.property as IpRangeListQuery["sort"] } : {}),
      order: q.sort?.order ?? q.order,
      limit: q.limit,
      offset: q.offset,
    });
    const chain = await loadChainRecord(scope.db, scope.chainId, scope.level);
    return { records: rows.map((r) => toRecord(r, chain)), total };
  },

  async create(scope, values) {
    const row = await insertIpRange(
      scope.db,
      {
        chainId: scope.chainId,
        cidr: normaliseCidr(values.cidr as string),
        notes: (values.notes as string | null | undefined) ?? null,
        lastUpdatedBy: scope.actorAdminId,
      },
      scope.now,
    );
    return toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level));
  },

  async update(scope, target, values) {
    const changes = {
      ...(values.cidr !== undefined ? { cidr: normaliseCidr(values.cidr as string) } : {}),
      ...(values.notes !== undefined ? { notes: values.notes as string | null } : {}),
      lastUpdatedBy: scope.actorAdminId,
    };
    const row = await updateIpRange(scope.db, scope.chainId, target.id as number, changes, scope.now);
    return row ? toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level)) : null;
  },

  async remove(scope, target) {
    const row = await deleteIpRange(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? toRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.level)) : null;
  },
};

/**
 * A stored range as a resource record.
 * @param chain the chain record to nest (see loadChainRecord); a range listed under its chain
 *   (Chain.allowed_ip_ranges) passes `{id}` only
 */
export function toRecord(row: IpRangeRow, chain: ResourceRecord): ResourceRecord {
  return {
    chain,
    cidr: row.cidr,
    created_date: row.createdDate,
    deleted: row.deleted,
    id: row.id,
    last_modified_date: row.lastModifiedDate,
    last_updated_by: row.lastUpdatedBy === null ? null : { id: row.lastUpdatedBy },
    notes: row.notes,
  };
}
