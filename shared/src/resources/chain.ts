/**
 * Chain (singular resource): spec, "Resources and their fields" -> "Chain". No POST, no DELETE,
 * no plural; W (writable through PUT/PATCH, super-user only) is `ops: W`, a property without W
 * and not read-only is `ops: []` (readable, never written through the API).
 *
 * Decisions where the spec is silent:
 * - `app`, `authentication_point` and `last_updated_by` are references (objects with `id`); `app`
 *   is the chain's first app (lowest id); `authentication_point` is the chain's webshop connector
 *   (./authentication-point.ts: type, base_url, identity-source service client; its integration
 *   token is never rendered), null when the chain has none. The spec marks it read-only, so it
 *   is set by the operator (`npm run admin -- set-authentication-point`), not through PUT/PATCH.
 * - `currency` renders as `{id, code, name}` (ISO 4217, from the currencies table) and is written
 *   as an object with the `id` of a known currency (other keys are ignored); it is null until set.
 * - PUT behaves like PATCH: only the properties sent change. A chain's settings are many and
 *   mostly independent, so a replacement that resets every omitted setting would be a trap.
 * - `name` is 1-255 characters; URLs are absolute http(s) URLs (other schemes, such as
 *   `javascript:`, are refused); `competition_win_rate_multiplier` is >= 0.
 * - `allowed_ip_ranges` lists the chain's live ranges ([] when there are none).
 */
import { z } from "zod";
import { defineResource, field, reference, type Operation } from "./meta.ts";

const W: Operation[] = ["put", "patch"];
const NO: Operation[] = [];
const httpUrl = (max: number) => z.url({ protocol: /^https?$/ }).max(max);

/** The units of the referral code submission window. */
export const REFERRAL_WINDOW_UNITS = ["year", "month", "week", "day", "hour", "minute", "second"] as const;

export const chainResource = defineResource({
  name: "chain",
  plural: "chains",
  description:
    "The chain named by X-Service-Chain-ID (singular: no list, POST or DELETE). PUT and PATCH change only the properties sent " +
    "and need super-user access; currency is written as {id}.",
  fields: z.object({
    allowed_business_formats: field(z.array(z.string()).nullable(), { level: 3, ops: W }),
    allowed_ip_ranges: field(z.array(reference()).nullable(), { level: 3, readOnly: true, immutable: true, reference: "allowed_ip_range" }),
    allows_double_discounting: field(z.boolean(), { level: 3, ops: W }),
    app: field(reference().nullable(), { level: 1, readOnly: true, reference: "app" }),
    authentication_point: field(reference().nullable(), { level: 2, readOnly: true, reference: "authentication_point" }),
    basket_campaign_require_barcode_assignment: field(z.boolean(), { level: 3, ops: W, description: "basket campaign needs at least one barcode assignment" }),
    basket_campaign_require_format_assignment: field(z.boolean(), { level: 3, ops: W, description: "needs at least one business format assignment" }),
    basket_campaign_require_region_or_store_assignment: field(z.boolean(), { level: 3, ops: W, description: "needs at least one business or business region assignment" }),
    basket_voucher_always_redeem_full_value_in_store: field(z.boolean(), { level: 3, ops: NO }),
    basket_voucher_always_redeem_full_value_online: field(z.boolean(), { level: 3, ops: NO }),
    business_group_enabled: field(z.boolean(), { level: 3, ops: W }),
    calculate_basket_on_total_value_in_store: field(z.boolean(), { level: 3, ops: NO }),
    calculate_basket_on_total_value_online: field(z.boolean(), { level: 3, ops: NO }),
    chain_stores_user_signature: field(z.boolean(), { level: 3, ops: W }),
    competition_win_rate_multiplier: field(z.number().min(0), { level: 3, ops: W, description: "scalar on competition win chance" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true }),
    currency: field(z.looseObject({ id: z.int() }), { level: 2, ops: W, description: "{id, code, name}; written as {id}" }),
    deleted: field(z.boolean(), { level: 1, readOnly: true }),
    dummy_email_domain: field(z.hostname().max(128), { level: 2, ops: W }),
    email_address: field(z.email().max(255).nullable(), { level: 2, ops: W }),
    enrichment_enabled: field(z.boolean(), { level: 3, ops: W, description: "transaction enrichment" }),
    exclude_rewards_on_basket_campaign_discounted_items: field(z.boolean(), { level: 3, ops: W }),
    expired_vouchers_regenerate_on_return: field(z.boolean(), { level: 3, ops: NO }),
    first_transaction_sets_home_and_signup_store: field(z.boolean(), { level: 3, ops: W }),
    geo_codes_user_address_info: field(z.boolean(), { level: 3, ops: W }),
    wallet_issuer_id: field(z.string().max(128), { level: 3, ops: W }),
    id: field(z.int(), { level: 0, readOnly: true, identifier: true }),
    image_url: field(httpUrl(1024), { level: 2, ops: W }),
    ip_whitelist_super_user_exemption: field(z.boolean(), { level: 3, ops: W }),
    jwt_audience: field(z.string().max(255).nullable(), { level: 3, ops: W, description: "audience expected for shopper access tokens" }),
    jwt_issuer: field(z.string().max(255).nullable(), { level: 3, ops: W, description: "issuer expected for shopper access tokens" }),
    jwt_jwks_url: field(httpUrl(512).nullable(), { level: 3, ops: W, description: "key-set URL used to validate shopper access tokens; must be, and resolve only to, public addresses (unless the service runs with WEBHOOK_ALLOW_PRIVATE), else 419" }),
    language: field(z.string().max(32).nullable(), { level: 2, ops: W, description: "IETF/W3C language code" }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user" }),
    name: field(z.string().min(1).max(255), { level: 1, ops: W }),
    non_payment_state: field(z.boolean(), { level: 3, readOnly: true }),
    outlier_analysis_enabled: field(z.boolean(), { level: 3, ops: W }),
    password_reset_url: field(httpUrl(1024), { level: 3, ops: W }),
    phone_number: field(z.string().max(32).nullable(), { level: 2, ops: W }),
    receipt_logo_url: field(httpUrl(1024).nullable(), { level: 2, ops: W }),
    receipts_service_active: field(z.boolean(), { level: 3, ops: NO }),
    redeem_basket_voucher_on_negative_value_basket: field(z.boolean(), { level: 3, ops: NO }),
    referral_code_submission_window_quantity: field(z.int().min(1).max(1_000_000).nullable(), { level: 3, ops: W, description: "with referral_code_submission_window_unit (both set or both null): how long after signing up a user may apply a referral code" }),
    referral_code_submission_window_unit: field(z.enum(REFERRAL_WINDOW_UNITS).nullable(), { level: 3, ops: W, description: "year, month, week, day, hour, minute or second; with referral_code_submission_window_quantity" }),
    regenerate_vouchers_on_partial_redemption: field(z.boolean(), { level: 3, ops: W, description: "non-return partial redemptions regenerate the remaining value" }),
    regenerated_rewards_redeem_immediately: field(z.boolean(), { level: 3, ops: NO }),
    require_unique_phone_number: field(z.boolean(), { level: 3, ops: W }),
    return_redeem_voucher_before_cash: field(z.boolean(), { level: 3, ops: NO }),
    use_custom_member_numbers: field(z.boolean(), { level: 3, ops: W }),
    uses_third_party_voucher_id: field(z.boolean(), { level: 3, ops: W }),
    uses_user_address_two_field_for_platform: field(z.boolean(), { level: 3, ops: W, description: "address format when the authentication point is an e-commerce platform" }),
    verify_phone_numbers: field(z.boolean(), { level: 3, ops: W }),
  }),
});

export type Chain = z.infer<typeof chainResource.fields>;
