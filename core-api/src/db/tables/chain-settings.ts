/**
 * The settings columns of a chain (spec, "Chain (singular resource)"), spread into the chains
 * table. Booleans default to false, as a new chain has none of these behaviours switched on.
 */
import { boolean, double, int, text, varchar } from "drizzle-orm/mysql-core";

/**
 * The phone verification limits' defaults (users/phone-verification-limits.ts reads them per
 * chain; an operator sets them: chains/operator-settings.ts).
 */
export const PHONE_LIMIT_DEFAULTS = {
  /** seconds a number waits between two codes (a re-submitted number sends again only after it) */
  sendIntervalSeconds: 60,
  /** codes sent to one user per window */
  sendsPerUser: 5,
  /** codes sent to one number per window, whoever's it is */
  sendsPerNumber: 5,
  /** codes the chain sends per window */
  sendsPerChain: 1000,
  /** wrong codes one user may try per window, across codes */
  attemptsPerUser: 10,
  /** wrong codes tried for one number per window, across users and codes */
  attemptsPerNumber: 10,
  /** the window of the counts above, in seconds */
  windowSeconds: 3600,
} as const;

const PHONE = PHONE_LIMIT_DEFAULTS;

const flag = (name: string) => boolean(name).notNull().default(false);

export const chainSettings = {
  /** JSON array of strings */
  allowedBusinessFormats: text("allowed_business_formats"),
  allowsDoubleDiscounting: flag("allows_double_discounting"),
  basketCampaignRequireBarcodeAssignment: flag("basket_campaign_require_barcode_assignment"),
  basketCampaignRequireFormatAssignment: flag("basket_campaign_require_format_assignment"),
  basketCampaignRequireRegionOrStoreAssignment: flag("basket_campaign_require_region_or_store_assignment"),
  basketVoucherAlwaysRedeemFullValueInStore: flag("basket_voucher_always_redeem_full_value_in_store"),
  basketVoucherAlwaysRedeemFullValueOnline: flag("basket_voucher_always_redeem_full_value_online"),
  businessGroupEnabled: flag("business_group_enabled"),
  calculateBasketOnTotalValueInStore: flag("calculate_basket_on_total_value_in_store"),
  calculateBasketOnTotalValueOnline: flag("calculate_basket_on_total_value_online"),
  chainStoresUserSignature: flag("chain_stores_user_signature"),
  competitionWinRateMultiplier: double("competition_win_rate_multiplier").notNull().default(1),
  /** references currencies.id */
  currencyId: int("currency_id"),
  dummyEmailDomain: varchar("dummy_email_domain", { length: 128 }),
  emailAddress: varchar("email_address", { length: 255 }),
  enrichmentEnabled: flag("enrichment_enabled"),
  excludeRewardsOnBasketCampaignDiscountedItems: flag("exclude_rewards_on_basket_campaign_discounted_items"),
  expiredVouchersRegenerateOnReturn: flag("expired_vouchers_regenerate_on_return"),
  firstTransactionSetsHomeAndSignupStore: flag("first_transaction_sets_home_and_signup_store"),
  geoCodesUserAddressInfo: flag("geo_codes_user_address_info"),
  walletIssuerId: varchar("wallet_issuer_id", { length: 128 }),
  imageUrl: varchar("image_url", { length: 1024 }),
  ipWhitelistSuperUserExemption: flag("ip_whitelist_super_user_exemption"),
  jwtAudience: varchar("jwt_audience", { length: 255 }),
  jwtIssuer: varchar("jwt_issuer", { length: 255 }),
  jwtJwksUrl: varchar("jwt_jwks_url", { length: 512 }),
  language: varchar("language", { length: 32 }),
  nonPaymentState: flag("non_payment_state"),
  outlierAnalysisEnabled: flag("outlier_analysis_enabled"),
  passwordResetUrl: varchar("password_reset_url", { length: 1024 }),
  phoneNumber: varchar("phone_number", { length: 32 }),
  // The phone verification limits (users/phone-verification-limits.ts), set by an operator
  // (chains/operator-settings.ts): counts per window, the window and the interval in seconds.
  phoneVerificationSendIntervalSeconds: int("phone_verification_send_interval_seconds").notNull().default(PHONE.sendIntervalSeconds),
  phoneVerificationSendsPerUser: int("phone_verification_sends_per_user").notNull().default(PHONE.sendsPerUser),
  phoneVerificationSendsPerNumber: int("phone_verification_sends_per_number").notNull().default(PHONE.sendsPerNumber),
  phoneVerificationSendsPerChain: int("phone_verification_sends_per_chain").notNull().default(PHONE.sendsPerChain),
  phoneVerificationAttemptsPerUser: int("phone_verification_attempts_per_user").notNull().default(PHONE.attemptsPerUser),
  phoneVerificationAttemptsPerNumber: int("phone_verification_attempts_per_number").notNull().default(PHONE.attemptsPerNumber),
  phoneVerificationLimitWindowSeconds: int("phone_verification_limit_window_seconds").notNull().default(PHONE.windowSeconds),
  receiptLogoUrl: varchar("receipt_logo_url", { length: 1024 }),
  receiptsServiceActive: flag("receipts_service_active"),
  redeemBasketVoucherOnNegativeValueBasket: flag("redeem_basket_voucher_on_negative_value_basket"),
  /** apply-referral-code's window after signup: both set or both null (users/referral-window.ts) */
  referralCodeSubmissionWindowQuantity: int("referral_code_submission_window_quantity"),
  referralCodeSubmissionWindowUnit: varchar("referral_code_submission_window_unit", { length: 16 }),
  regenerateVouchersOnPartialRedemption: flag("regenerate_vouchers_on_partial_redemption"),
  regeneratedRewardsRedeemImmediately: flag("regenerated_rewards_redeem_immediately"),
  requireUniquePhoneNumber: flag("require_unique_phone_number"),
  /** delete-campaign: deleting an active campaign also needs campaign_enable (spec) */
  restrictCampaignEnable: flag("restrict_campaign_enable"),
  returnRedeemVoucherBeforeCash: flag("return_redeem_voucher_before_cash"),
  useCustomMemberNumbers: flag("use_custom_member_numbers"),
  usesThirdPartyVoucherId: flag("uses_third_party_voucher_id"),
  usesUserAddressTwoFieldForPlatform: flag("uses_user_address_two_field_for_platform"),
  verifyPhoneNumbers: flag("verify_phone_numbers"),
};
