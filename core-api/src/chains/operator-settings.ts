/**
 * The chain settings the API does not write: not in the spec's Chain table, so no Resources call
 * sets them; an operator sets them with `npm run admin -- chain-setting <chain id> <name> <value>`
 * (scripts/admin/chain-setting.ts). Each is a column of the chains table
 * (db/tables/chain-settings.ts) whose default is the one declared here.
 *
 * The declaration is zod: a value given as text on the command line is read by its schema
 * (`readSettingValue`), which refuses an unknown name or a bad value with a sentence saying why.
 */
import { z } from "zod";
import { PHONE_LIMIT_DEFAULTS } from "../db/tables/chain-settings.ts";

/** The phone verification limits' defaults, declared with their columns (db/tables/chain-settings.ts). */
export { PHONE_LIMIT_DEFAULTS };

/** A whole number from `min` to `max`, read from text. */
const count = (min: number, max: number) =>
  z.string().trim().regex(/^\d+$/, "must be a whole number").transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

/** "true" or "false" (also 1 / 0, yes / no), read from text. */
const flag = z.string().trim().toLowerCase()
  .refine((s) => ["true", "false", "1", "0", "yes", "no"].includes(s), "must be true or false")
  .transform((s) => s === "true" || s === "1" || s === "yes");

/** One setting: its column key on the chains table, how its text value is read, and what it does. */
interface OperatorSetting {
  column: string;
  schema: z.ZodType<number | boolean, string>;
  description: string;
}

/** Every chain setting the API does not write, by its name (snake_case, as the chain's other settings). */
export const OPERATOR_CHAIN_SETTINGS = {
  restrict_campaign_enable: {
    column: "restrictCampaignEnable",
    schema: flag,
    description: "deleting an active campaign also needs the campaign_enable permission (true / false; default false)",
  },
  phone_verification_send_interval_seconds: {
    column: "phoneVerificationSendIntervalSeconds",
    schema: count(0, 86_400),
    description: `seconds before a number gets another code (0-86400; default ${PHONE_LIMIT_DEFAULTS.sendIntervalSeconds})`,
  },
  phone_verification_sends_per_user: {
    column: "phoneVerificationSendsPerUser",
    schema: count(1, 1_000_000),
    description: `codes sent to one user per window (1-1000000; default ${PHONE_LIMIT_DEFAULTS.sendsPerUser})`,
  },
  phone_verification_sends_per_number: {
    column: "phoneVerificationSendsPerNumber",
    schema: count(1, 1_000_000),
    description: `codes sent to one phone number per window (1-1000000; default ${PHONE_LIMIT_DEFAULTS.sendsPerNumber})`,
  },
  phone_verification_sends_per_chain: {
    column: "phoneVerificationSendsPerChain",
    schema: count(1, 100_000_000),
    description: `codes the chain sends per window (1-100000000; default ${PHONE_LIMIT_DEFAULTS.sendsPerChain})`,
  },
  phone_verification_attempts_per_user: {
    column: "phoneVerificationAttemptsPerUser",
    schema: count(1, 1000),
    description: `wrong codes one user may try per window, across codes (1-1000; default ${PHONE_LIMIT_DEFAULTS.attemptsPerUser})`,
  },
  phone_verification_attempts_per_number: {
    column: "phoneVerificationAttemptsPerNumber",
    schema: count(1, 1000),
    description: `wrong codes tried for one phone number per window, across users (1-1000; default ${PHONE_LIMIT_DEFAULTS.attemptsPerNumber})`,
  },
  phone_verification_limit_window_seconds: {
    column: "phoneVerificationLimitWindowSeconds",
    schema: count(60, 30 * 86_400),
    description: `the window of the phone verification counts, in seconds (60-2592000; default ${PHONE_LIMIT_DEFAULTS.windowSeconds})`,
  },
  // The basket pricing and return settings (baskets/pricing.ts, baskets/sale.ts): read-only on
  // the Chain resource, so the operator sets them here.
  basket_voucher_always_redeem_full_value_in_store: {
    column: "basketVoucherAlwaysRedeemFullValueInStore",
    schema: flag,
    description: "an in-store basket voucher is recorded as used in full, even when the basket was smaller (true / false; default false)",
  },
  basket_voucher_always_redeem_full_value_online: {
    column: "basketVoucherAlwaysRedeemFullValueOnline",
    schema: flag,
    description: "an online basket voucher is recorded as used in full, even when the basket was smaller (true / false; default false)",
  },
  calculate_basket_on_total_value_in_store: {
    column: "calculateBasketOnTotalValueInStore",
    schema: flag,
    description: "in-store vouchers discount basket_total_price, not the lines (true / false; default false)",
  },
  calculate_basket_on_total_value_online: {
    column: "calculateBasketOnTotalValueOnline",
    schema: flag,
    description: "online vouchers discount basket_total_price, not the lines (true / false; default false)",
  },
  redeem_basket_voucher_on_negative_value_basket: {
    column: "redeemBasketVoucherOnNegativeValueBasket",
    schema: flag,
    description: "basket vouchers still apply to the positive lines of a basket whose total is negative (true / false; default false)",
  },
  expired_vouchers_regenerate_on_return: {
    column: "expiredVouchersRegenerateOnReturn",
    schema: flag,
    description: "a return issues a replacement even for an expired original voucher (true / false; default false)",
  },
  regenerated_rewards_redeem_immediately: {
    column: "regeneratedRewardsRedeemImmediately",
    schema: flag,
    description: "a return's replacement voucher applies at once to the new lines of an exchange (true / false; default false)",
  },
  return_redeem_voucher_before_cash: {
    column: "returnRedeemVoucherBeforeCash",
    schema: flag,
    description: "a return takes back voucher value before cash (true / false; default false)",
  },
} as const satisfies Record<string, OperatorSetting>;

/** The name of a setting the API does not write. */
export type OperatorSettingName = keyof typeof OPERATOR_CHAIN_SETTINGS;

/** A setting's value read from text, or why it cannot be. */
export type SettingValue =
  | { ok: true; name: OperatorSettingName; column: string; value: number | boolean }
  | { ok: false; reason: string };

/**
 * Reads `text` as the value of setting `name`.
 * @returns the value with the setting's column key, or a refusal naming the problem (an unknown
 *   name lists the known ones)
 * @example readSettingValue("phone_verification_sends_per_user", "3") // { ok: true, value: 3, ... }
 */
export function readSettingValue(name: string, text: string): SettingValue {
  if (!Object.hasOwn(OPERATOR_CHAIN_SETTINGS, name)) {
    return { ok: false, reason: `unknown setting ${name} (settings: ${Object.keys(OPERATOR_CHAIN_SETTINGS).join(", ")})` };
  }
  const setting = OPERATOR_CHAIN_SETTINGS[name as OperatorSettingName];
  const parsed = setting.schema.safeParse(text);
  if (!parsed.success) return { ok: false, reason: `${name}: ${parsed.error.issues[0]?.message ?? "bad value"} (got ${JSON.stringify(text)}): ${setting.description}` };
  return { ok: true, name: name as OperatorSettingName, column: setting.column, value: parsed.data };
}
