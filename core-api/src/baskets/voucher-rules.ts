/**
 * Whether a voucher may take part in a basket at all (handbook, "Baskets": which vouchers, locks;
 * spec, "Voucher"): its status, expiry, lock and business. Pure; get-basket-price reports the
 * reason, add-basket refuses with its error (`REASON_ERRORS`).
 */
import type { ErrorName } from "@service/shared";
import type { Cents } from "./money.ts";

/** A voucher as pricing reads it: money in cents. */
export interface PricingVoucher {
  id: number;
  key: string;
  /** basket | basket_pct | basket_fixed_unit | honour */
  type: string;
  /** generated | claimed | redeemed */
  status: string;
  deleted: boolean;
  /** basket and basket_fixed_unit: cents off (per unit for fixed unit) */
  amount: Cents | null;
  /** basket_pct: 0..1 */
  discountRatio: number | null;
  expiryDate: Date | null;
  lockedUntil: Date;
  basketOwnerCodeExclusive: string | null;
  lockingCode: string | null;
  redemptionExclusiveBusinessId: number | null;
  honourCode: string | null;
}

/** Why a considered voucher is not applied. */
export type VoucherReason =
  | "not_claimed" | "already_redeemed" | "expired" | "locked" | "wrong_business"
  | "negative_value_basket" | "double_discounting" | "nothing_to_discount";

/** add-basket's refusal for each reason (handbook, error codes). */
export const REASON_ERRORS: Record<VoucherReason, ErrorName> = {
  not_claimed: "voucher_not_claimed",
  already_redeemed: "voucher_already_redeemed",
  expired: "voucher_expired",
  locked: "voucher_locked",
  wrong_business: "voucher_not_redeemable_here",
  negative_value_basket: "voucher_not_redeemable_here",
  double_discounting: "voucher_not_applicable",
  nothing_to_discount: "voucher_not_applicable",
};

/** What the basket offers to a voucher's rules. */
export interface VoucherContext {
  now: Date;
  branchBusinessId: number | null;
  retailerBasketCode: string | null;
  /** the `locking_code` of the voucher's `basket_vouchers` entry */
  lockingCode: string | null;
}

/**
 * Whether a voucher is locked for this basket: `locked_until` in the future and neither its
 * `basket_owner_code_exclusive` equals the basket's `retailer_basket_code` (when it has one) nor
 * the entry's locking code equals its `locking_code` (when it has no exclusive code).
 */
export function isLocked(v: PricingVoucher, ctx: VoucherContext): boolean {
  if (v.lockedUntil.getTime() <= ctx.now.getTime()) return false;
  if (v.basketOwnerCodeExclusive !== null) return ctx.retailerBasketCode !== v.basketOwnerCodeExclusive;
  return v.lockingCode === null || ctx.lockingCode !== v.lockingCode;
}

/** The reason a voucher cannot take part in this basket, or null when it can. */
export function voucherRefusal(v: PricingVoucher, ctx: VoucherContext): VoucherReason | null {
  if (v.status === "redeemed") return "already_redeemed";
  if (v.status !== "claimed" || v.deleted) return "not_claimed";
  if (v.expiryDate !== null && v.expiryDate.getTime() <= ctx.now.getTime()) return "expired";
  if (isLocked(v, ctx)) return "locked";
  if (v.redemptionExclusiveBusinessId !== null && v.redemptionExclusiveBusinessId !== ctx.branchBusinessId) return "wrong_business";
  return null;
}
