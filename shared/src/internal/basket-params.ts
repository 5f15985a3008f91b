/**
 * The basket parameters get-basket-price and add-basket share (handbook, "Baskets":
 * get-basket-price's parameter table), and the pricing results both answer with.
 *
 * Money is a JSON number or a decimal string with at most 2 decimals (more is refused, 419), in
 * the chain's currency; answers carry money as decimal strings with exactly 2 places.
 */
import { z } from "zod";
import { param } from "./call.ts";
import { chars } from "./param-values.ts";

/** Most lines one basket may carry. */
export const MAX_BASKET_LINES = 500;
/** Most `basket_vouchers` entries. */
export const MAX_BASKET_VOUCHERS = 20;
/** Largest absolute amount (DECIMAL(12,2)). */
export const MAX_MONEY = 9_999_999_999.99;
/** A basket's platform type: it picks the chain's `_in_store` or `_online` settings. */
export const BASKET_PLATFORM_TYPES = ["in_store", "online"] as const;

const FORMAT = { params: { refusal: "format" } } as const;

/** An amount of money: a JSON number or a decimal string, at most 2 decimals; read as a number. */
export const money = () =>
  z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, "must be a decimal number").transform(Number)])
    .pipe(z.number().min(-MAX_MONEY).max(MAX_MONEY)
      .refine((n) => /^-?\d+(\.\d{1,2})?$/.test(String(n)), { ...FORMAT, message: "at most 2 decimals" }));

/** One line of `basket_items`: `item_price` is the line price for `item_quantity`. */
export const basketLineSchema = z.strictObject({
  item_barcode: z.string().max(64).optional(),
  retailer_item_code: z.string().max(64).optional(),
  description: z.string().max(255).optional(),
  item_quantity: z.number().min(-1_000_000).max(1_000_000).refine((q) => q !== 0, "cannot be 0").default(1),
  item_price: money(),
  exclude_from_vouchers: z.boolean().optional(),
  return_item: z.boolean().optional(),
  original_retailer_basket_code: z.string().max(255).optional(),
});
export type BasketLine = z.infer<typeof basketLineSchema>;

const lineList = z.array(basketLineSchema).max(MAX_BASKET_LINES).superRefine((lines, ctx) => {
  const seen = new Set<string>();
  for (const l of lines) {
    if (l.retailer_item_code === undefined) continue;
    if (seen.has(l.retailer_item_code)) ctx.addIssue({ code: "custom", message: `retailer_item_code ${l.retailer_item_code} twice`, params: FORMAT.params });
    seen.add(l.retailer_item_code);
  }
});

/** One `basket_vouchers` entry; a bare key string is short for `{key}`. */
export const basketVoucherEntrySchema = z.union([
  z.string().min(1).max(64).transform((key) => ({ key })),
  z.strictObject({ key: z.string().min(1).max(64), locking_code: z.string().max(255).optional(), expected_discount: money().optional() }),
]);
export type BasketVoucherEntry = { key: string; locking_code?: string; expected_discount?: number };

const entryList = z.array(basketVoucherEntrySchema).max(MAX_BASKET_VOUCHERS);

/** A list parameter: the array itself in a JSON body, or its JSON text (forms). */
export function jsonList<T extends z.ZodType>(list: T) {
  const fromText = z.string().transform((s, ctx) => {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "must be a JSON array", params: FORMAT.params });
      return z.NEVER;
    }
  }).pipe(list);
  return z.union([list, fromText]);
}

const key = (description: string) => param(chars(255), { invalid: "parameter_invalid", length: "string_parameter_too_long", description }).optional();

/** The parameters both basket calls read, after chain_id, in the order they are checked. */
export const basketParams = {
  user_id: param(z.int().min(1), { invalid: "parameter_invalid", description: "the member (at most one of the four identifiers)" }).optional(),
  member_number: key("the member by member number"),
  username: key("the member by username"),
  authentication_point_identifier: key("the member by the chain's identity system id"),
  branch_business_id: param(z.int().min(1), { invalid: "parameter_invalid", description: "a live business of the chain" }).optional(),
  branch_business_owner_code: param(chars(64), { invalid: "parameter_invalid", length: "string_parameter_too_long", description: "a live business of the chain by owner_code (when branch_business_id is absent)" }).optional(),
  basket_platform_type: param(z.enum(BASKET_PLATFORM_TYPES), { invalid: "parameter_invalid", description: "in_store (default with a branch business) or online (default without)" }).optional(),
  retailer_basket_code: param(chars(255), { invalid: "parameter_invalid", length: "string_parameter_too_long", description: "the shop's code of the basket" }).optional(),
  basket_total_price: param(money(), { missing: "parameter_missing", invalid: "parameter_invalid", description: "what the shop charges before vouchers, at most 2 decimals" }),
  basket_items: param(jsonList(lineList), { invalid: "parameter_invalid", description: `up to ${MAX_BASKET_LINES} lines {item_barcode, retailer_item_code, item_quantity, item_price (the line price), exclude_from_vouchers, return_item, original_retailer_basket_code}` }).optional(),
  basket_vouchers: param(jsonList(entryList), { invalid: "parameter_invalid", description: `up to ${MAX_BASKET_VOUCHERS} entries {key, locking_code, expected_discount} or keys; absent: every claimed voucher (get-basket-price), none (add-basket)` }).optional(),
};

/** The parameters that name the member, in the order they are tried. */
export const BASKET_USER_IDENTIFIERS = ["user_id", "member_number", "username", "authentication_point_identifier"] as const;

const moneyText = z.string().regex(/^-?\d+\.\d\d$/);

/** The pricing of a basket: get-basket-price's results, add-basket's `pricing`. */
export const basketPricingSchema = z.strictObject({
  user: z.strictObject({ id: z.int(), member_number: z.string().nullable() }).nullable(),
  basket_platform_type: z.enum(BASKET_PLATFORM_TYPES),
  retailer_basket_code: z.string().nullable(),
  basket_total_price: moneyText,
  // each line as sent (its item_price the number read), with what the vouchers did to it
  basket_items: z.array(z.strictObject({
    item_barcode: z.string().optional(),
    retailer_item_code: z.string().optional(),
    description: z.string().optional(),
    item_quantity: z.number(),
    item_price: z.number(),
    exclude_from_vouchers: z.boolean().optional(),
    return_item: z.boolean().optional(),
    original_retailer_basket_code: z.string().optional(),
    discount: moneyText,
    final_price: moneyText,
    // voucher_key null: a return's replacement not issued yet (get-basket-price), parent_voucher_key its original
    adjustments: z.array(z.strictObject({ voucher_key: z.string().nullable(), amount: moneyText, parent_voucher_key: z.string().optional() })),
  })).nullable(),
  // A return's replacement applied at once (chain setting regenerated_rewards_redeem_immediately) names the
  // voucher it replaces as parent_voucher_key; its key is null in get-basket-price, which issues nothing.
  vouchers_applied: z.array(z.strictObject({
    key: z.string().nullable(), type: z.string(), discount: moneyText, amount_redeemed: moneyText.nullable(), honour_code: z.string().nullable(),
    parent_voucher_key: z.string().optional(),
  })),
  vouchers_not_applied: z.array(z.strictObject({ key: z.string(), reason: z.string() })),
  basket_discount: moneyText,
  basket_final_price: moneyText,
  rewardable_total: moneyText,
  warnings: z.array(z.string()),
});
export type BasketPricing = z.infer<typeof basketPricingSchema>;
