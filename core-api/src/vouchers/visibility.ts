/**
 * Which vouchers a caller sees (spec, "Resource-specific behaviour", Voucher with end-user
 * authentication). Pure: the repository turns the result into conditions.
 *
 * Admins (and privileged chain-scope callers) see every live voucher of the header chain. An
 * end-user sees only their own vouchers: by id or key regardless of status (another user's
 * voucher is 544, as if it did not exist); the list shows only `generated` and `claimed` ones
 * unless the request filters by status itself (for example `status=redeemed`). The end-user's
 * omitted properties are the declaration's `omitFor.end_user`. Writes are not theirs at all: the
 * access table refuses them with 544 before a voucher is read (auth/access-table.ts).
 */
import type { VoucherStatus } from "@service/shared/resources/voucher";
import type { FilterValue } from "../db/resource-columns.ts";

/** Who is reading or writing vouchers. */
export type VoucherViewer = { kind: "admin" } | { kind: "end_user"; userId: number };

/** Conditions added to the chain's live vouchers; an absent key adds none. */
export interface VoucherVisibility {
  /** only the vouchers this user owns */
  userId?: number;
  /** only vouchers in one of these statuses */
  statuses?: readonly VoucherStatus[];
}

/** What an end-user's list shows when the request does not filter by status. */
export const END_USER_DEFAULT_STATUSES: readonly VoucherStatus[] = ["generated", "claimed"];

/**
 * The end-user rule.
 * @param userId the shopper's user id
 * @param operation `get` (one voucher by id or key) or `list`
 * @param filters the list's filters by property name (ignored for `get`)
 * @returns own vouchers only; for a list without a status filter, only generated and claimed ones
 */
export function endUserVoucherFilter(
  userId: number,
  operation: "get" | "list",
  filters: Readonly<Record<string, FilterValue>> = {},
): VoucherVisibility {
  if (operation === "list" && filters.status === undefined) return { userId, statuses: END_USER_DEFAULT_STATUSES };
  return { userId };
}

/**
 * The visibility of `viewer` for `operation`.
 * @returns no conditions for an admin; `endUserVoucherFilter` for an end-user
 */
export function voucherVisibility(
  viewer: VoucherViewer,
  operation: "get" | "list",
  filters: Readonly<Record<string, FilterValue>> = {},
): VoucherVisibility {
  return viewer.kind === "end_user" ? endUserVoucherFilter(viewer.userId, operation, filters) : {};
}

