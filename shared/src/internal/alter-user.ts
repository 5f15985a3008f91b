/**
 * `PUT /internal/alter-user` (handbook decision; the spec names the call only), declared once:
 * user_id and any user field of add-user, with add-user's validation. A shopper alters their own
 * profile (user_id optional) but not member_number, authentication_point_identifier or
 * is_employee. signup_channel never changes.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { userInfoSchema } from "../user-info.ts";
import { defineCall, param } from "./call.ts";
import { userFieldParams } from "./user-params.ts";

/** `results` of alter-user. */
export const alterUserResultsSchema = z.strictObject({
  user: userInfoSchema,
  result_type: z.literal("alter-user"),
});
export type AlterUserResults = z.infer<typeof alterUserResultsSchema>;

/** The whole success body of alter-user. */
export const alterUserResponseSchema = successEnvelope(alterUserResultsSchema);

/** alter-user (unknown parameters are ignored); only the fields given change, an empty one clears. */
export const alterUserCall = defineCall({
  name: "alter-user",
  method: "PUT",
  path: "/internal/alter-user",
  summary: "Change a user",
  description:
    "Changes the fields given of one user (an empty value clears a field; a boolean goes back to its default). The user is " +
    "user_id, or else the one named by exactly one of username, member_number, authentication_point_identifier in chain_id's " +
    "chain (with user_id given, those are changes). Admins " +
    "need assign access to the user's chain, tokens chain scope; a shopper alters their own profile (user_id optional), " +
    "but not member_number, authentication_point_identifier or is_employee (68).",
  params: {
    user_id: param(z.int().min(1), { invalid: "parameter_invalid", description: "names the user (admins and tokens: this or one of username, member_number, authentication_point_identifier, else 441)" }).optional(),
    chain_id: param(z.int(), { invalid: "chain_id_invalid", description: "the chain of username, member_number or authentication_point_identifier when one of them names the user" }).optional(),
    ...userFieldParams,
  },
  errors: [
    "no_valid_session", "access_token_invalid", "http_vars_missing", "parameter_missing", "permission_denied_or_non_existent", "invalid_phone_number",
    "phone_number_already_exists", "postalcode_invalid", "user_already_exists", "http_request_method_non_PUT_not_allowed",
  ],
  results: alterUserResultsSchema,
});
