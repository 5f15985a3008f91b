/**
 * Voucher status rules (spec, "States and transitions"): generated (available) -> claimed ->
 * redeemed (final). Pure: the repository applies the result to the locked row.
 *
 * Decisions where the spec is silent ("Transitions ... other than the rule above: not shown"):
 * a status only moves forward (a voucher may be redeemed without being claimed first, as at a
 * till); moving back is refused like changing a redeemed status, with 419 parameter_invalid,
 * since both are a bad value for `status` rather than a missing permission.
 */
import { VOUCHER_STATUSES, type VoucherStatus } from "@service/shared/resources/voucher";
import { ServiceError } from "../http/service-error.ts";

/** Column changes a status write causes (drizzle column names). */
export interface StatusColumns {
  status?: VoucherStatus;
  redeemedDate?: Date;
  dbRedeemedDate?: Date;
}

const rank = (s: VoucherStatus) => VOUCHER_STATUSES.indexOf(s);

/**
 * The columns a write of `requested` changes on a voucher whose stored status is `current`.
 * @param current the stored status; null when the voucher is being created
 * @param requested the status the write carries; undefined when it carries none
 * @param now when the voucher is redeemed: both redeemed_date and db_redeemed_date take it
 * @returns nothing to change when `requested` is absent or equals `current`; else the new status,
 *   with the redeemed dates when it is `redeemed`
 * @throws ServiceError parameter_invalid (419) when `current` is redeemed and `requested` is
 *   another status, or when `requested` comes before `current` (claimed -> generated)
 */
export function statusChange(current: VoucherStatus | null, requested: VoucherStatus | undefined, now: Date): StatusColumns {
  if (requested === undefined || requested === current) return {};
  if (current === "redeemed") {
    throw new ServiceError("parameter_invalid", `status: the voucher is redeemed; a redeemed voucher's status never changes (not to ${requested}).`);
  }
  if (current !== null && rank(requested) < rank(current)) {
    throw new ServiceError("parameter_invalid", `status: a ${current} voucher cannot go back to ${requested}.`);
  }
  return requested === "redeemed" ? { status: requested, redeemedDate: now, dbRedeemedDate: now } : { status: requested };
}
