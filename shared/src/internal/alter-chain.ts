/**
 * `PUT /internal/alter-chain` (handbook, "Baskets": alter-chain; the spec names the call only),
 * declared once: changes the W properties of a chain, as PATCH on the Chain resource does. Only
 * chain_id is a parameter of its own: every other parameter is a property of the Chain resource,
 * checked by that resource's declaration (`../resources/chain.ts`), so the two cannot drift.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { defineCall, param } from "./call.ts";

/** `results` of alter-chain: the chain as `GET /resources/chain` renders it at level 3. */
export const alterChainResultsSchema = z.strictObject({
  chain: z.record(z.string(), z.unknown()),
  result_type: z.literal("alter-chain"),
});
export type AlterChainResults = z.infer<typeof alterChainResultsSchema>;

/** The whole success body of alter-chain. */
export const alterChainResponseSchema = successEnvelope(alterChainResultsSchema);

/** alter-chain: chain_id, and any W property of the Chain resource. */
export const alterChainCall = defineCall({
  name: "alter-chain",
  method: "PUT",
  path: "/internal/alter-chain",
  summary: "Change a chain's settings",
  description:
    "Changes the properties sent, each a W property of the Chain resource checked as PATCH /resources/chain/{id} checks it " +
    "(a property the resource does not write, such as calculate_basket_on_total_value_online, is 419: an operator sets " +
    "those with npm run admin -- chain-setting). Super-user admins only; tokens and shoppers get 68. Answers the chain as " +
    "GET /resources/chain at level 3.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid", description: "the chain to change" }),
  },
  errors: [
    "no_valid_session", "access_token_invalid", "permission_denied_or_non_existent", "http_request_method_non_PUT_not_allowed",
    "parameter_invalid", "string_parameter_too_long",
  ],
  results: alterChainResultsSchema,
  // Its other parameters are the Chain resource's PATCH body's properties: the document lists
  // them in the call's body, so the request example may hold them.
  bodyAlso: "chain.patch",
  examples: {
    request: { chain_id: 1, allows_double_discounting: true, referral_code_submission_window_quantity: 3, referral_code_submission_window_unit: "month" },
    results: { chain: { id: 1, name: "Demo chain", allows_double_discounting: true, referral_code_submission_window_quantity: 3, referral_code_submission_window_unit: "month" }, result_type: "alter-chain" },
  },
});
