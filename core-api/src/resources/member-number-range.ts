/**
 * MemberNumberRange in the Resources API (handbook, "The user": member numbers, a super-user
 * Resource): the adapter between the generic engine and users/member-number-range-repository.ts.
 * Every operation needs a super-user admin (auth/access-table.ts). first <= last and no overlap
 * with the chain's live ranges are checked by the repository under the chain's row lock (419).
 */
import { memberNumberRangeResource } from "@service/shared/resources/member-number-range";
import { loadChainRecord } from "../chains/nested-record.ts";
import { memberNumberRangeColumns, memberNumberRangeRecord } from "../users/member-number-range-columns.ts";
import {
  deleteMemberNumberRange,
  findMemberNumberRange,
  insertMemberNumberRange,
  listMemberNumberRanges,
  updateMemberNumberRange,
  type NewMemberNumberRange,
} from "../users/member-number-range-repository.ts";
import type { ResourceAdapter } from "./engine.ts";

/** The MemberNumberRange adapter of the engine. */
export const memberNumberRangeAdapter: ResourceAdapter = {
  declaration: memberNumberRangeResource,

  async findOne(scope, by) {
    const row = await findMemberNumberRange(scope.db, scope.chainId, by.value as number);
    return row ? memberNumberRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },

  async list(scope, q) {
    const { rows, total } = await listMemberNumberRanges(scope.db, scope.chainId, q);
    const chain = await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain);
    return { records: rows.map((r) => memberNumberRangeRecord(r, chain)), total };
  },

  async create(scope, values) {
    const columns = memberNumberRangeColumns.toColumns(values) as Omit<NewMemberNumberRange, "chainId" | "lastUpdatedBy">;
    const row = await insertMemberNumberRange(scope.db, { ...columns, chainId: scope.chainId, lastUpdatedBy: scope.actorAdminId }, scope.now);
    return memberNumberRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain));
  },

  async update(scope, target, values) {
    const { first, last } = memberNumberRangeColumns.toColumns(values);
    const changes = { ...(first !== undefined ? { first } : {}), ...(last !== undefined ? { last } : {}), lastUpdatedBy: scope.actorAdminId };
    const row = await updateMemberNumberRange(scope.db, scope.chainId, target.id as number, changes, scope.now);
    return row ? memberNumberRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },

  async remove(scope, target) {
    const row = await deleteMemberNumberRange(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? memberNumberRangeRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },
};
