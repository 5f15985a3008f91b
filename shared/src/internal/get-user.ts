/**
 * `GET /internal/get-user` (handbook decision; the spec names the call only), declared once:
 * exactly one of user_id, username, member_number, authentication_point_identifier (with chain_id
 * for the last three); a shopper reads their own profile without any.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { userInfoSchema } from "../user-info.ts";
import { defineCall, param } from "./call.ts";
import { chars } from "./param-values.ts";

/** `results` of get-user. */
export const getUserResultsSchema = z.strictObject({
  user: userInfoSchema,
  result_type: z.literal("get-user"),
});
export type GetUserResults = z.infer<typeof getUserResultsSchema>;

/** The whole success body of get-user. */
export const getUserResponseSchema = successEnvelope(getUserResultsSchema);

/** The parameters that name the user, in the order they are tried. */
export const USER_IDENTIFIERS = ["user_id", "username", "member_number", "authentication_point_identifier"] as const;

const key = (description: string) => param(chars(255), { invalid: "parameter_invalid", length: "string_parameter_too_long", description }).optional();

/** get-user (unknown parameters are ignored). */
export const getUserCall = defineCall({
  name: "get-user",
  method: "GET",
  path: "/internal/get-user",
  summary: "One user",
  description:
    "The user named by exactly one of user_id, username, member_number and authentication_point_identifier (the last three " +
    "in chain_id's chain). Admins need read access, tokens chain scope; a shopper reads their own profile (no parameter " +
    "needed). A user of another chain answers as a missing one (68).",
  params: {
    chain_id: param(z.int(), { invalid: "chain_id_invalid", description: "the chain of username, member_number, authentication_point_identifier (admins and tokens)" }).optional(),
    user_id: param(z.int().min(1), { invalid: "parameter_invalid" }).optional(),
    username: key("the user's username"),
    member_number: key("the user's member number"),
    authentication_point_identifier: key("the user's id in the chain's identity system"),
  },
  errors: ["no_valid_session", "access_token_invalid", "http_vars_missing", "parameter_missing", "permission_denied_or_non_existent", "http_request_method_non_GET_not_allowed"],
  results: getUserResultsSchema,
});
