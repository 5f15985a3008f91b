/**
 * `POST /internal/verify-phone-number` (handbook, "Events"; spec, "Versioning" 1.6.3: "phone
 * verification by SMS one-time code"), declared once: the six-digit code a user received by SMS
 * (event `phone_number_verification`) for their current phone number. The right code sets
 * `phone_number_status` to 3 (verified); a repeat of it is answered the same.
 *
 * Refusals (nothing changes but the attempt counts): no code pending for the user's current number
 * (never sent, the number changed since, or already verified with another code) 908
 * phone_verification_not_pending, or 920 phone_verification_send_limited (429, with Retry-After)
 * when the chain's send limits held the number's code back; older than 10 minutes 906
 * phone_verification_code_expired; 5 wrong codes tried for the code, or the chain's limit of wrong
 * codes per user or per number in its window reached, 907 phone_verification_attempts_exceeded
 * (the window's with Retry-After); a wrong code 905 phone_verification_code_invalid (it counts as
 * an attempt). A new code is sent by changing or re-submitting the phone number (add-user,
 * alter-user), within the chain's limits; it replaces the previous one.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { userInfoSchema } from "../user-info.ts";
import { defineCall, param } from "./call.ts";

/** How many characters a code has. */
export const VERIFICATION_CODE_LENGTH = 6;

/** `results` of verify-phone-number. */
export const verifyPhoneNumberResultsSchema = z.strictObject({
  user: userInfoSchema,
  result_type: z.literal("verify-phone-number"),
});
/** The `results` of verify-phone-number. */
export type VerifyPhoneNumberResults = z.infer<typeof verifyPhoneNumberResultsSchema>;

/** The whole success body of verify-phone-number. */
export const verifyPhoneNumberResponseSchema = successEnvelope(verifyPhoneNumberResultsSchema);

/** verify-phone-number (unknown parameters are ignored). */
export const verifyPhoneNumberCall = defineCall({
  name: "verify-phone-number",
  method: "POST",
  path: "/internal/verify-phone-number",
  summary: "Verify a phone number with its SMS code",
  description:
    "Checks the six-digit code sent by SMS (event phone_number_verification) for the user's current phone number; the right " +
    "one sets phone_number_status 3 (verified). Admins need assign access to the user's chain, tokens chain scope; a shopper " +
    "verifies their own number (user_id optional). A code lives 10 minutes and allows 5 tries; changing or re-submitting " +
    "the phone number sends a new one.",
  params: {
    user_id: param(z.int().min(1), { invalid: "parameter_invalid", description: "required for admins and tokens (441 parameter_missing)" }).optional(),
    code: param(z.string().regex(/^\d{6}$/, "must be six digits"), {
      invalid: "parameter_invalid", missing: "parameter_missing", description: "the six digits received by SMS",
    }),
  },
  errors: [
    "no_valid_session", "access_token_invalid", "parameter_missing", "parameter_invalid", "permission_denied_or_non_existent",
    "phone_verification_code_invalid", "phone_verification_code_expired", "phone_verification_attempts_exceeded", "phone_verification_not_pending",
    "phone_verification_send_limited", "http_request_method_non_POST_not_allowed",
  ],
  results: verifyPhoneNumberResultsSchema,
});
