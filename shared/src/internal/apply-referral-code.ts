/**
 * `POST /internal/apply-referral-code` (handbook, "Baskets": apply-referral-code; the spec names
 * the call only), declared once: records who referred a user, within the chain's referral code
 * submission window after the user signed up.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { userInfoSchema } from "../user-info.ts";
import { defineCall, param } from "./call.ts";
import { chars } from "./param-values.ts";

/** `results` of apply-referral-code. */
export const applyReferralCodeResultsSchema = z.strictObject({
  user: userInfoSchema,
  referring_user: z.strictObject({ id: z.int(), first_name: z.string().nullable(), last_name: z.string().nullable() }),
  result_type: z.literal("apply-referral-code"),
});
export type ApplyReferralCodeResults = z.infer<typeof applyReferralCodeResultsSchema>;

/** The whole success body of apply-referral-code. */
export const applyReferralCodeResponseSchema = successEnvelope(applyReferralCodeResultsSchema);

/** The referred user of the example: a user info object, every key present. */
const EXAMPLE_USER: z.input<typeof userInfoSchema> = {
  id: 42, user_id: 42, member_number: "10000042", username: "alex@example.com",
  address_streetname: null, address_housenumber: null, address_housenumber_extension: null, address_line_2: null, address_line_3: null,
  address_postalcode: null, address_regionstate: null, address_towncity: null, birthday: null, country_code: "NL", entity_code: null,
  first_name: "Alex", last_name: "de Vries", gender: null,
  mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: false, printed_mailing_list_subscribed: null },
  opt_in_programme: { programme_opted_in: true }, phone_number: null, signup_channel: "app", phone_number_status: 0,
  phone_number_duplicate: false, referral_code: "H4TQ8ZRM", auxiliary_identifier: null, authentication_point_identifier: null,
  language: "nl-NL", home_store_id: null, signup_store_id: null, is_employee: false, registered: true, opt_in_secondary: null,
  created_date: "2026-11-20T09:30:00Z", last_modified_date: "2026-11-21T10:00:00Z",
};

/** apply-referral-code (unknown parameters are ignored). */
export const applyReferralCodeCall = defineCall({
  name: "apply-referral-code",
  method: "POST",
  path: "/internal/apply-referral-code",
  summary: "Apply another user's referral code",
  description:
    "Records that the user was referred by the owner of referral_code (one referrer per user), while the user's " +
    "created_date plus the chain's referral code submission window lies in the future. Admins need assign access, tokens " +
    "chain scope; a shopper applies a code for themselves (no user_id). No reward is issued yet.",
  params: {
    chain_id: param(z.int(), { invalid: "chain_id_invalid", description: "the chain (admins and tokens)" }).optional(),
    user_id: param(z.int().min(1), { invalid: "parameter_invalid", description: "the referred user (admins and tokens)" }).optional(),
    referral_code: param(chars(255), { missing: "parameter_missing", invalid: "parameter_invalid", length: "string_parameter_too_long", description: "another user's referral code, as a person types it" }),
  },
  errors: [
    "no_valid_session", "access_token_invalid", "http_vars_missing", "parameter_missing", "permission_denied_or_non_existent",
    "http_request_method_non_POST_not_allowed", "referral_code_own", "referral_window_closed", "referral_already_applied",
  ],
  results: applyReferralCodeResultsSchema,
  examples: {
    request: { chain_id: 1, user_id: 42, referral_code: "7K3M-9Q2P" },
    results: { user: EXAMPLE_USER, referring_user: { id: 17, first_name: "Sam", last_name: "Jansen" }, result_type: "apply-referral-code" },
  },
});
