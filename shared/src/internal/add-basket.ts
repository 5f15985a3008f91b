/**
 * `POST /internal/add-basket` (handbook, "first transaction" and "Baskets": the spec names the
 * call only), declared once: confirms a sale, storing the priced basket of a member and redeeming
 * the vouchers it names; the member's first basket applies the spec's first-transaction rule
 * (spec, "Internal call: add-user": first_transaction_sets_home_and_signup_store).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { BASKET_PLATFORM_TYPES, basketLineSchema, basketParams, basketPricingSchema } from "./basket-params.ts";
import { defineCall, param } from "./call.ts";
import { responseDateTime } from "./param-values.ts";

/** Most items one basket may carry. */
export const MAX_BASKET_ITEMS = 500;
/** Largest absolute amount of a basket or an item price (DECIMAL(12,2)). */
export const MAX_BASKET_AMOUNT = 9_999_999_999.99;

/** One item of a basket. */
export const basketItemSchema = z.strictObject({
  sku: z.string().max(64).optional(),
  description: z.string().max(255).optional(),
  quantity: z.number().positive().max(1_000_000),
  price: z.number().min(-MAX_BASKET_AMOUNT).max(MAX_BASKET_AMOUNT),
});
export type BasketItem = z.infer<typeof basketItemSchema>;

const itemList = z.array(basketItemSchema).max(MAX_BASKET_ITEMS);

/** `items` (the older form of `basket_items`): the array itself in a JSON body, or its JSON text (forms). */
export function itemsValue() {
  const fromText = z
    .string()
    .transform((s, ctx) => {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON array of items", params: { refusal: "format" } });
        return z.NEVER;
      }
    })
    .pipe(itemList);
  return z.union([itemList, fromText]);
}

/** The basket record of add-basket: `items` as sent (the older `items` or `basket_items`). */
export const basketRecordSchema = z.strictObject({
  id: z.int(),
  chain_id: z.int(),
  user_id: z.int(),
  branch_business_id: z.int().nullable(),
  basket_total_price: z.number(),
  items: z.array(z.union([basketItemSchema, basketLineSchema])).nullable(),
  retailer_basket_code: z.string().nullable(),
  basket_platform_type: z.enum(BASKET_PLATFORM_TYPES).nullable(),
  basket_discount: z.string().regex(/^-?\d+\.\d\d$/),
  created_date: responseDateTime,
});
export type BasketRecord = z.infer<typeof basketRecordSchema>;

/** `results` of add-basket. */
export const addBasketResultsSchema = z.strictObject({
  basket: basketRecordSchema,
  /** the basket's pricing, as get-basket-price answers it */
  pricing: basketPricingSchema.nullable(),
  /** true: the same retailer_basket_code and content came before; this is the stored answer, nothing was written */
  duplicate: z.boolean(),
  /** vouchers this basket issued: a return's replacements, and the rest of partly used vouchers */
  issued_vouchers: z.array(z.strictObject({
    key: z.string(),
    amount: z.string().regex(/^-?\d+\.\d\d$/),
    parent_voucher_key: z.string(),
    reason: z.enum(["return", "partial_redemption"]),
    expiry_date: z.string().nullable(),
  })),
  result_type: z.literal("add-basket"),
});
export type AddBasketResults = z.infer<typeof addBasketResultsSchema>;

/** The whole success body of add-basket. */
export const addBasketResponseSchema = successEnvelope(addBasketResultsSchema);

/** add-basket (unknown parameters are ignored). */
export const addBasketCall = defineCall({
  name: "add-basket",
  method: "POST",
  path: "/internal/add-basket",
  summary: "Confirm a sale: store the basket, redeem its vouchers",
  description:
    "Stores the basket of the member (exactly one of user_id, member_number, username, authentication_point_identifier) " +
    "priced as get-basket-price prices it, and redeems exactly the vouchers named in basket_vouchers (none without it), " +
    "in one transaction, exactly once: a voucher redeemed meanwhile answers 910 and nothing is written. The same " +
    "retailer_basket_code with the same content answers the stored basket (duplicate: true); with other content 914. " +
    "With the chain setting first_transaction_sets_home_and_signup_store, the member's first basket fills an empty " +
    "signup store and home store with its branch business. Needs write access to the chain.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    ...basketParams,
    items: param(itemsValue().nullable(), { invalid: "parameter_invalid", description: `older form of basket_items: up to ${MAX_BASKET_ITEMS} items {sku, description, quantity, price}` }).optional(),
  },
  errors: [
    "no_valid_session", "access_token_invalid", "parameter_missing", "permission_denied_or_non_existent", "http_request_method_non_POST_not_allowed",
    "voucher_not_claimed", "voucher_already_redeemed", "voucher_expired", "voucher_locked", "voucher_not_redeemable_here",
    "basket_already_exists", "basket_price_changed", "voucher_not_applicable",
  ],
  results: addBasketResultsSchema,
  examples: {
    request: {
      chain_id: 1, member_number: "100042", basket_total_price: "10.00", retailer_basket_code: "POS7-000123",
      basket_items: [{ retailer_item_code: "BEANS", item_quantity: 1, item_price: "10.00" }],
      basket_vouchers: [{ key: "Vb7Qx...", expected_discount: "1.00" }],
    },
    results: {
      basket: {
        id: 5120, chain_id: 1, user_id: 42, branch_business_id: null, basket_total_price: 10,
        items: [{ retailer_item_code: "BEANS", item_quantity: 1, item_price: 10 }],
        retailer_basket_code: "POS7-000123", basket_platform_type: "online", basket_discount: "1.00", created_date: "2026-11-21T10:00:00Z",
      },
      pricing: {
        user: { id: 42, member_number: "100042" }, basket_platform_type: "online", retailer_basket_code: "POS7-000123", basket_total_price: "10.00",
        basket_items: [{ retailer_item_code: "BEANS", item_quantity: 1, item_price: 10, discount: "1.00", final_price: "9.00", adjustments: [{ voucher_key: "Vb7Qx...", amount: "1.00" }] }],
        vouchers_applied: [{ key: "Vb7Qx...", type: "basket_pct", discount: "1.00", amount_redeemed: "1.00", honour_code: null }],
        vouchers_not_applied: [], basket_discount: "1.00", basket_final_price: "9.00", rewardable_total: "9.00", warnings: [],
      },
      duplicate: false,
      issued_vouchers: [],
      result_type: "add-basket",
    },
  },
});
