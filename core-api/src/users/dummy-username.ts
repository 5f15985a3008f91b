/**
 * The username of a user added without one (spec, "Internal call: add-user": "Dummy username";
 * handbook, "The user"): with the chain's `dummy_email_domain` and a member_number given in one of
 * the chain's custom ranges, `<member_number>@<domain>`; otherwise `user-<24 hex>@<domain>`, the
 * domain being the chain's dummy_email_domain or `dummy.invalid` (a reserved name no mail reaches).
 * Pure but for the random part.
 */

/** The domain of dummy usernames when the chain has none configured (RFC 2606: never resolves). */
export const DEFAULT_DUMMY_DOMAIN = "dummy.invalid";

/**
 * @param memberNumberInCustomRange the member_number given, when it lies in a custom range of the chain; else null
 * @example dummyUsername("shop.example", "5000123") // "5000123@shop.example"
 */
export function dummyUsername(dummyEmailDomain: string | null, memberNumberInCustomRange: string | null): string {
  const domain = dummyEmailDomain?.trim() || null;
  if (domain && memberNumberInCustomRange) return `${memberNumberInCustomRange}@${domain}`;
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  return `user-${hex}@${domain ?? DEFAULT_DUMMY_DOMAIN}`;
}
