/**
 * `POST /internal/get-basket-price` (handbook, "Baskets": get-basket-price; the spec names the
 * call only), declared once: prices a provisional basket for a member (or anonymously) with
 * their claimed vouchers and writes nothing.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { itemsValue } from "./add-basket.ts";
import { basketParams, basketPricingSchema } from "./basket-params.ts";
import { defineCall, param } from "./call.ts";

/** `results` of get-basket-price. */
export const getBasketPriceResultsSchema = basketPricingSchema.extend({ result_type: z.literal("get-basket-price") });
export type GetBasketPriceResults = z.infer<typeof getBasketPriceResultsSchema>;

/** The whole success body of get-basket-price. */
export const getBasketPriceResponseSchema = successEnvelope(getBasketPriceResultsSchema);

/** get-basket-price (unknown parameters are ignored). */
export const getBasketPriceCall = defineCall({
  name: "get-basket-price",
  method: "POST",
  path: "/internal/get-basket-price",
  summary: "Price a basket with the member's vouchers",
  description:
    "Answers the basket adjusted by the member's claimed vouchers (all of them, or those in basket_vouchers): per line " +
    "discount, final price and adjustments, the vouchers applied and those not applied with a reason, the basket's " +
    "discount and final price. Stores nothing. Admins need write access, tokens chain scope; a shopper prices their own " +
    "basket. Money: at most 2 decimals in, 2-place decimal strings out.",
  params: {
    chain_id: param(z.int(), { invalid: "chain_id_invalid", description: "the chain: required for admins; a token without it prices in the chain it was issued in" }).optional(),
    ...basketParams,
    items: param(itemsValue(), { invalid: "parameter_invalid", description: "older form of basket_items ({sku, description, quantity, price})" }).optional(),
  },
  errors: ["no_valid_session", "access_token_invalid", "http_vars_missing", "permission_denied_or_non_existent", "http_request_method_non_POST_not_allowed"],
  results: getBasketPriceResultsSchema,
  examples: {
    request: {
      chain_id: 1, member_number: "100042", branch_business_owner_code: "AMS-01", basket_total_price: "26.14",
      basket_items: [
        { retailer_item_code: "BEANS", item_quantity: 2, item_price: "14.90" },
        { retailer_item_code: "MUG", item_quantity: 1, item_price: "9.95", exclude_from_vouchers: true },
        { retailer_item_code: "MILK", item_quantity: 1, item_price: "1.29" },
      ],
    },
    results: {
      user: { id: 42, member_number: "100042" }, basket_platform_type: "in_store", retailer_basket_code: null, basket_total_price: "26.14",
      basket_items: [
        { retailer_item_code: "BEANS", item_quantity: 2, item_price: 14.9, discount: "1.49", final_price: "13.41", adjustments: [{ voucher_key: "Vb7Qx...", amount: "1.49" }] },
        { retailer_item_code: "MUG", item_quantity: 1, item_price: 9.95, exclude_from_vouchers: true, discount: "0.00", final_price: "9.95", adjustments: [] },
        { retailer_item_code: "MILK", item_quantity: 1, item_price: 1.29, discount: "0.13", final_price: "1.16", adjustments: [{ voucher_key: "Vb7Qx...", amount: "0.13" }] },
      ],
      vouchers_applied: [
        { key: "Vb7Qx...", type: "basket_pct", discount: "1.62", amount_redeemed: "1.62", honour_code: null },
        { key: "Hn2Lp...", type: "honour", discount: "0.00", amount_redeemed: null, honour_code: "FREE-COFFEE" },
      ],
      vouchers_not_applied: [{ key: "Ex9Tz...", reason: "expired" }],
      basket_discount: "1.62", basket_final_price: "24.52", rewardable_total: "24.52", warnings: [],
      result_type: "get-basket-price",
    },
  },
});
