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
    chain_id: param(z.int(), { invalid: "chain_id_invalid", description: "the chain (admins and tokens)" }).optional(),
    ...basketParams,
    items: param(itemsValue(), { invalid: "parameter_invalid", description: "older form of basket_items ({sku, description, quantity, price})" }).optional(),
  },
  errors: ["no_valid_session", "access_token_invalid", "http_vars_missing", "permission_denied_or_non_existent", "http_request_method_non_POST_not_allowed"],
  results: getBasketPriceResultsSchema,
});
