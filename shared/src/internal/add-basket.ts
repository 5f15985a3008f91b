/**
 * `POST /internal/add-basket` (handbook, "first transaction": the spec names the call only),
 * declared once: records one basket of a user, so the spec's first-transaction rule is real
 * (spec, "Internal call: add-user": first_transaction_sets_home_and_signup_store).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { defineCall, param } from "./call.ts";
import { chars, responseDateTime } from "./param-values.ts";

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

/** The basket record of add-basket. */
export const basketRecordSchema = z.strictObject({
  id: z.int(),
  chain_id: z.int(),
  user_id: z.int(),
  branch_business_id: z.int().nullable(),
  basket_total_price: z.number(),
  items: z.array(basketItemSchema).nullable(),
  created_date: responseDateTime,
});
export type BasketRecord = z.infer<typeof basketRecordSchema>;

/** `results` of add-basket. */
export const addBasketResultsSchema = z.strictObject({
  basket: basketRecordSchema,
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
  summary: "Record a basket of a user",
  description:
    "Records a basket of user user_id at the branch business branch_business_id (else branch_business_owner_code; neither: " +
    "none). With the chain setting first_transaction_sets_home_and_signup_store, the user's first basket fills an empty " +
    "signup store and home store with its branch business. Needs write access to the chain.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    user_id: param(z.int().min(1), { missing: "parameter_missing", invalid: "parameter_invalid", description: "a user of the chain" }),
    branch_business_id: param(z.int().min(1), { invalid: "parameter_invalid", description: "a live business of the chain" }).optional(),
    branch_business_owner_code: param(chars(64), { invalid: "parameter_invalid", length: "string_parameter_too_long", description: "a live business of the chain by owner_code (when branch_business_id is absent)" }).optional(),
    basket_total_price: param(z.number().min(-MAX_BASKET_AMOUNT).max(MAX_BASKET_AMOUNT), { missing: "parameter_missing", invalid: "parameter_invalid", description: "the basket's total, in the chain's currency" }),
    items: param(itemsValue().nullable(), { invalid: "parameter_invalid", description: `up to ${MAX_BASKET_ITEMS} items {sku, description, quantity, price}` }).optional(),
  },
  errors: ["no_valid_session", "access_token_invalid", "permission_denied_or_non_existent", "http_request_method_non_POST_not_allowed"],
  results: addBasketResultsSchema,
});
