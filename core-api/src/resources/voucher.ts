/**
 * Voucher in the Resources API (spec, "Voucher", "States and transitions", "Resource-specific
 * behaviour"): the adapter between the generic engine and the voucher rules and storage in
 * vouchers/. The engine has already checked access to the header chain and validated every
 * property on its own; here come the rules that span properties or need the database, all before
 * anything is written:
 * - POST: type fields (vouchers/type-rules.ts), status effects (vouchers/status.ts), references
 *   in the header chain (vouchers/references.ts), then the insert with a generated key; the
 *   creating admin is recorded as `creating_user` (null for a privileged token).
 * - PUT / PATCH: references, then type fields of the merged voucher and the status order (a
 *   redeemed status never changes: 419 parameter_invalid), checked against the voucher as the
 *   engine read it; the update applies only while the row is still that voucher, else it is read
 *   again under a lock and checked again (vouchers/voucher-repository.ts updateVoucher). The answer is the
 *   voucher as written, not read back; its nested records are the ones read, unless the write
 *   changed those references.
 * - DELETE: soft delete; the voucher is 544 afterwards and cannot be undeleted (`deleted` is
 *   writable by no method).
 */
import { VOUCHER_STATUSES, VOUCHER_TYPES, type VoucherStatus } from "@service/shared/resources/voucher";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { ServiceError } from "../http/service-error.ts";
import { loadNestedRecords } from "../vouchers/nested.ts";
import { toVoucherColumns, toVoucherRecord, voucherDeclaration, type VoucherRow } from "../vouchers/voucher-columns.ts";
import { checkVoucherReferences } from "../vouchers/references.ts";
import { deleteVoucher, findVoucher, insertVoucher, listVouchers, updateVoucher, type NewVoucher } from "../vouchers/voucher-repository.ts";
import { statusChange } from "../vouchers/status.ts";
import { checkVoucherType } from "../vouchers/type-rules.ts";
import { voucherVisibility, type VoucherViewer } from "../vouchers/visibility.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { FilterValue } from "./list-params.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./request-scope.ts";

/** The Voucher adapter of the engine. */
export const voucherAdapter: ResourceAdapter = {
  declaration: voucherDeclaration,

  async findOne(scope, by) {
    const visibility = voucherVisibility(viewerOf(scope), "get");
    const row = await findVoucher(scope.db, scope.chainId, { property: by.property as "id" | "key", value: by.value }, visibility);
    if (!row) return null;
    const record = (await records(scope, [row]))[0]!;
    READ.set(record, row);
    return record;
  },

  async list(scope, q) {
    checkEnumFilters(q.filters);
    const visibility = voucherVisibility(viewerOf(scope), "list", q.filters);
    const { rows, total } = await listVouchers(scope.db, scope.chainId, q, visibility);
    return { records: await records(scope, rows), total };
  },

  async create(scope, values) {
    checkVoucherType(values);
    const status = statusChange(null, values.status as VoucherStatus, scope.now);
    await checkVoucherReferences(scope.db, scope.chainId, values);
    const columns = toVoucherColumns(values);
    const row = await insertVoucher(
      scope.db,
      {
        ...(columns as NewVoucher),
        ...status,
        chainId: scope.chainId,
        // The admin who creates the voucher is its creating user; a privileged token has none (null).
        creatingUserId: scope.actorAdminId,
        lockedUntil: columns.lockedUntil ?? scope.now,
        lastUpdatedBy: scope.actorAdminId,
      },
      scope.now,
    );
    return (await records(scope, [row]))[0]!;
  },

  async update(scope, target, values) {
    await checkVoucherReferences(scope.db, scope.chainId, values);
    const read = READ.get(target) ?? (await findVoucher(scope.db, scope.chainId, { property: "id", value: target.id as number }));
    if (!read) return null;
    const { status: requested, ...rest } = values;
    const at = wholeSeconds(scope.now);
    const row = await updateVoucher(
      scope.db,
      read,
      (current) => {
        checkVoucherType({ ...toVoucherRecord(current), ...values });
        return {
          ...toVoucherColumns(rest),
          ...statusChange(current.status as VoucherStatus, requested as VoucherStatus | undefined, at),
          lastUpdatedBy: scope.actorAdminId,
        };
      },
      at,
    );
    if (!row) return null;
    const sameNested = row.parentVoucherId === read.parentVoucherId && row.redemptionExclusiveBusinessId === read.redemptionExclusiveBusinessId;
    if (!sameNested) return (await records(scope, [row]))[0]!;
    return { ...toVoucherRecord(row), parent_voucher: target.parent_voucher, redemption_exclusive_business: target.redemption_exclusive_business };
  },

  async remove(scope, target) {
    const row = await deleteVoucher(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? (await records(scope, [row]))[0]! : null;
  },
};

/**
 * The stored row behind each record findOne returned, so an update plans against exactly what
 * the engine read (and checked the request against) without reading it again.
 */
const READ = new WeakMap<ResourceRecord, VoucherRow>();

/**
 * Who the scope is for: an end-user sees and may touch only their own vouchers
 * (vouchers/visibility.ts); admins and privileged chain-scope callers see the whole chain.
 */
function viewerOf(scope: ResourceScope): VoucherViewer {
  if (scope.audience === "end_user") {
    // resolveScope always sets userId for end-users; a missing one must never widen visibility.
    if (scope.userId === null) throw new ServiceError("resource_not_found");
    return { kind: "end_user", userId: scope.userId };
  }
  return { kind: "admin" };
}

/**
 * status and type filter on closed sets: a value outside them is a client mistake, not an empty list.
 * @throws ServiceError parameter_invalid (419)
 */
function checkEnumFilters(filters: Readonly<Record<string, FilterValue>>): void {
  const sets: Array<[string, readonly string[]]> = [
    ["status", VOUCHER_STATUSES],
    ["type", VOUCHER_TYPES],
  ];
  for (const [prop, allowed] of sets) {
    const value = filters[prop];
    if (value !== undefined && !allowed.includes(String(value))) {
      throw new ServiceError("parameter_invalid", `${prop} must be one of ${allowed.join(", ")}.`);
    }
  }
}

async function records(scope: ResourceScope, rows: readonly VoucherRow[]): Promise<ResourceRecord[]> {
  const nested = await loadNestedRecords(scope.db, scope.chainId, rows, scope.recursionLevel, { chainShown: scope.view.reading("chain") !== "none" });
  return rows.map((row) => toVoucherRecord(row, nested));
}
