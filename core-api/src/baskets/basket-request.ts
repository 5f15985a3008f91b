/**
 * What get-basket-price and add-basket read alike (handbook, "Baskets": get-basket-price's
 * parameters): the member, the branch business, the platform type, the lines in cents and the
 * `basket_vouchers` entries; the chain's pricing columns and the voucher columns pricing reads
 * (what get-basket-price's one read selects: pricing-inputs.ts; add-basket's: sale-reads.ts).
 *
 * Errors: 419 parameter_invalid for several member identifiers, both `items` and `basket_items`,
 * an amount with more than 2 decimals, or a branch business that is no live business of the
 * chain; 68 permission_denied_or_non_existent for a member or a voucher key that is not the
 * chain's (or, for a voucher, not the member's).
 */
import type { BasketLine, BasketVoucherEntry } from "@service/shared/internal/basket-params";
import { BASKET_USER_IDENTIFIERS } from "@service/shared/internal/basket-params";
import type { BasketItem } from "@service/shared/internal/add-basket";
import { findBusinessById, findBusinessByOwnerCode } from "../businesses/business-repository.ts";
import type { CoreDb } from "../db/client.ts";
import { chains, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { findUser, type UserRow } from "../users/user-repository.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { toCents, type Cents } from "./money.ts";
import type { BasketPlatformType, PricingLine, PricingVoucher } from "./pricing.ts";

/** The basket parameters as both calls read them. */
export interface BasketValues {
  user_id?: number;
  member_number?: string | null;
  username?: string | null;
  authentication_point_identifier?: string | null;
  branch_business_id?: number;
  branch_business_owner_code?: string | null;
  basket_platform_type?: BasketPlatformType;
  retailer_basket_code?: string | null;
  basket_total_price: number;
  basket_items?: BasketLine[];
  basket_vouchers?: BasketVoucherEntry[];
  items?: BasketItem[] | null;
}

/** The basket as a request names it, money in cents. */
export interface BasketRequest {
  branchBusinessId: number | null;
  platformType: BasketPlatformType;
  retailerBasketCode: string | null;
  totalCents: Cents;
  /** the lines as sent (`items` mapped to `basket_items`); null without lines */
  lines: BasketLine[] | null;
  pricingLines: PricingLine[] | null;
  entries: BasketVoucherEntry[] | null;
}

const DENIED = "permission_denied_or_non_existent";

function cents(value: number, name: string): Cents {
  const c = toCents(value);
  if (c === null) throw new ServiceError("parameter_invalid", `${name} takes at most 2 decimals.`);
  return c;
}

/** The lines of a basket: `basket_items`, or the older `items` mapped to them; 419 for both. */
export function linesOf(v: BasketValues): BasketLine[] | null {
  if (v.basket_items !== undefined && v.items !== undefined && v.items !== null) throw new ServiceError("parameter_invalid", "Send basket_items or items, not both.");
  if (v.basket_items !== undefined) return v.basket_items;
  if (v.items === undefined || v.items === null) return null;
  return v.items.map((i) => ({
    ...(i.sku !== undefined ? { item_barcode: i.sku } : {}),
    ...(i.description !== undefined ? { description: i.description } : {}),
    item_quantity: i.quantity,
    item_price: i.price,
  }));
}

/** Reads the basket of a request (no database): lines in cents, platform type by its default. */
export async function readBasket(db: CoreDb, chainId: number, v: BasketValues): Promise<BasketRequest> {
  const lines = linesOf(v);
  const pricingLines = lines?.map((l, i) => {
    const price = cents(l.item_price, `basket_items[${i}].item_price`);
    return { price, quantity: l.item_quantity, excludeFromVouchers: l.exclude_from_vouchers === true, returnItem: l.return_item === true || l.item_quantity < 0 || price < 0 };
  }) ?? null;
  const branchBusinessId = await branchOf(db, chainId, v);
  return {
    branchBusinessId,
    platformType: v.basket_platform_type ?? (branchBusinessId === null ? "online" : "in_store"),
    retailerBasketCode: v.retailer_basket_code || null,
    totalCents: cents(v.basket_total_price, "basket_total_price"),
    lines,
    pricingLines,
    entries: v.basket_vouchers ?? null,
  };
}

/** The branch business: branch_business_id, else branch_business_owner_code, else none; 419 when not a live business of the chain. */
async function branchOf(db: CoreDb, chainId: number, v: BasketValues): Promise<number | null> {
  if (v.branch_business_id !== undefined) {
    if (!(await findBusinessById(db, chainId, v.branch_business_id))) throw new ServiceError("parameter_invalid", `branch_business_id ${v.branch_business_id} is no live business of the chain.`);
    return v.branch_business_id;
  }
  if (!v.branch_business_owner_code) return null;
  const business = await findBusinessByOwnerCode(db, chainId, v.branch_business_owner_code);
  if (!business) throw new ServiceError("parameter_invalid", `branch_business_owner_code ${v.branch_business_owner_code} names no live business of the chain.`);
  return business.id;
}

/** Which member identifier a request names: none, or one; 419 for several. */
export function memberKeyOf(v: BasketValues): (typeof BASKET_USER_IDENTIFIERS)[number] | null {
  const named = BASKET_USER_IDENTIFIERS.filter((k) => v[k] !== undefined && v[k] !== null && v[k] !== "");
  if (named.length > 1) throw new ServiceError("parameter_invalid", `Name the member by one of ${BASKET_USER_IDENTIFIERS.join(", ")}, not several.`);
  return named[0] ?? null;
}

/** The member a request names in chain `chainId`, or null when it names none; 68 when no user of the chain. */
export async function findMember(db: CoreDb | CoreTx, chainId: number, v: BasketValues): Promise<UserRow | null> {
  const key = memberKeyOf(v);
  if (key === null) return null;
  const user = key === "user_id" ? await findUser(db, chainId, { id: v.user_id! })
    : key === "member_number" ? await findUser(db, chainId, { memberNumber: v.member_number! })
    : key === "username" ? await findUser(db, chainId, { username: v.username! })
    : await findUser(db, chainId, { authenticationPointIdentifier: v.authentication_point_identifier! });
  if (!user) throw new ServiceError(DENIED, `${key} names no user of the chain.`);
  return user;
}

/** The chain's columns pricing reads (pricing.ts ChainPricingColumns). */
export const PRICING_COLUMNS = {
  basketVoucherAlwaysRedeemFullValueInStore: chains.basketVoucherAlwaysRedeemFullValueInStore,
  basketVoucherAlwaysRedeemFullValueOnline: chains.basketVoucherAlwaysRedeemFullValueOnline,
  calculateBasketOnTotalValueInStore: chains.calculateBasketOnTotalValueInStore,
  calculateBasketOnTotalValueOnline: chains.calculateBasketOnTotalValueOnline,
  redeemBasketVoucherOnNegativeValueBasket: chains.redeemBasketVoucherOnNegativeValueBasket,
  allowsDoubleDiscounting: chains.allowsDoubleDiscounting,
  excludeRewardsOnBasketCampaignDiscountedItems: chains.excludeRewardsOnBasketCampaignDiscountedItems,
};

export type VoucherRow = typeof vouchers.$inferSelect;

/** The voucher columns pricing reads (pricingVoucherOf). */
export const PRICING_VOUCHER_COLUMNS = {
  id: vouchers.id, key: vouchers.key, type: vouchers.type, status: vouchers.status, deleted: vouchers.deleted,
  amount: vouchers.amount, discountRatio: vouchers.discountRatio, expiryDate: vouchers.expiryDate, lockedUntil: vouchers.lockedUntil,
  basketOwnerCodeExclusive: vouchers.basketOwnerCodeExclusive, lockingCode: vouchers.lockingCode,
  redemptionExclusiveBusinessId: vouchers.redemptionExclusiveBusinessId, honourCode: vouchers.honourCode,
};

/** A voucher row as pricing reads it. */
export type PricingVoucherRow = Pick<VoucherRow, keyof typeof PRICING_VOUCHER_COLUMNS>;

/** A voucher row as pricing reads it (amounts in cents). */
export function pricingVoucherOf(r: PricingVoucherRow): PricingVoucher {
  return {
    id: r.id, key: r.key, type: r.type, status: r.status, deleted: r.deleted,
    amount: r.amount === null ? null : Math.round(r.amount * 100),
    discountRatio: r.discountRatio, expiryDate: r.expiryDate, lockedUntil: r.lockedUntil,
    basketOwnerCodeExclusive: r.basketOwnerCodeExclusive, lockingCode: r.lockingCode,
    redemptionExclusiveBusinessId: r.redemptionExclusiveBusinessId, honourCode: r.honourCode,
  };
}

/** The member a request names: by id, by one identifier's value, or none. */
export type MemberKey = { column: "id"; value: number } | { column: "memberNumber" | "username" | "authenticationPointIdentifier"; value: string } | null;

/** The member key of a request's values (see memberKeyOf), or null when it names none. */
export function memberKeyValue(v: BasketValues): MemberKey {
  const key = memberKeyOf(v);
  if (key === null) return null;
  if (key === "user_id") return { column: "id", value: v.user_id! };
  const column = key === "member_number" ? "memberNumber" : key === "username" ? "username" : "authenticationPointIdentifier";
  return { column, value: String(v[key]) };
}
