/**
 * Referral codes (handbook, "The user": every user gets one, 8 characters of Crockford base32,
 * unique in the chain; the unique index users_unique_referral_code_per_chain decides a clash).
 */
import { CROCKFORD_DIGITS, REFERRAL_CODE_LENGTH } from "@service/shared/internal/user-params";

/**
 * A new random referral code: 8 Crockford base32 digits (40 bits) from the Web Crypto random source.
 * @example newReferralCode() // "7K3Q0XZD"
 */
export function newReferralCode(): string {
  // 32 digits: a byte's low 5 bits are uniform, so no digit is favoured.
  const bytes = crypto.getRandomValues(new Uint8Array(REFERRAL_CODE_LENGTH));
  return Array.from(bytes, (b) => CROCKFORD_DIGITS[b & 31]).join("");
}
