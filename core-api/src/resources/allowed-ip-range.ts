/**
 * AllowedIpRange in the Resources API (spec, "AllowedIpRange", "Authentication": writes need
 * super-user access): the adapter between the generic engine and ip-ranges/ip-range-repository.ts.
 *
 * Property <-> column mapping is the range's storage mapping (ip-ranges/ip-range-columns.ts), which
 * normalises every cidr that comes in (body, `cidr` filter); the `?cidr=` identifier is
 * normalised here the same way, so `192.168.1.77/24` finds the stored `192.168.1.0/24` and a
 * malformed one is parameter_invalid (419) before anything is read or written.
 *
 * Every write is refused with 419 when it would leave the admin making it outside the chain's
 * ranges (ip-ranges/self-lockout.ts): adding the chain's first range elsewhere, moving or deleting
 * the range that covers them.
 */
import { allowedIpRangeResource } from "@service/shared/resources/allowed-ip-range";
import { loadChainRecord } from "../chains/nested-record.ts";
import { normaliseCidr } from "../ip-ranges/cidr.ts";
import { ipRangeColumns, ipRangeRecord } from "../ip-ranges/ip-range-columns.ts";
import {
  deleteIpRange, findIpRange, insertIpRange, listIpRanges, liveIpRanges, updateIpRange, type NewIpRange,
} from "../ip-ranges/ip-range-repository.ts";
import { refuseSelfLockout } from "../ip-ranges/self-lockout.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceScope } from "./request-scope.ts";

/** The AllowedIpRange adapter of the engine: reads need read access, every write super_user. */
export const allowedIpRangeAdapter: ResourceAdapter = {
  declaration: allowedIpRangeResource,

  async findOne(scope, by) {
    const key = by.property === "cidr" ? { cidr: normaliseCidr(String(by.value)) } : { id: by.value as number };
    const row = await findIpRange(scope.db, scope.chainId, key);
    return row ? ipRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },

  async list(scope, q) {
    const { rows, total } = await listIpRanges(scope.db, scope.chainId, q);
    const chain = await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain);
    return { records: rows.map((r) => ipRangeRecord(r, chain)), total };
  },

  async create(scope, values) {
    const columns = ipRangeColumns.toColumns(values) as NewIpRange;
    await refuseLockout(scope, (live) => [...live, columns.cidr]);
    const row = await insertIpRange(scope.db, { ...columns, chainId: scope.chainId, lastUpdatedBy: scope.actorAdminId }, scope.now);
    return ipRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain));
  },

  async update(scope, target, values) {
    const changes = { ...ipRangeColumns.toColumns(values), lastUpdatedBy: scope.actorAdminId };
    const moved = changes.cidr;
    if (moved !== undefined) await refuseLockout(scope, (live) => [...live.filter((cidr) => cidr !== target.cidr), moved]);
    const row = await updateIpRange(scope.db, scope.chainId, target.id as number, changes, scope.now);
    return row ? ipRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },

  async remove(scope, target) {
    await refuseLockout(scope, (live) => live.filter((cidr) => cidr !== target.cidr));
    const row = await deleteIpRange(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? ipRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },
};

/**
 * Refuses a write after which the admin making it would be outside the chain's ranges.
 * @param after the chain's live ranges after the write, given those before it
 * @throws ServiceError parameter_invalid (419), see ip-ranges/self-lockout.ts
 */
async function refuseLockout(scope: ResourceScope, after: (live: string[]) => string[]): Promise<void> {
  if (!scope.writingAdmin) return;
  const live = (await liveIpRanges(scope.db, scope.chainId)).map((r) => r.cidr);
  refuseSelfLockout(scope.writingAdmin, { cidrs: after(live), exemption: scope.chain.ipWhitelistSuperUserExemption });
}
