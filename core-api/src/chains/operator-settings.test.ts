/**
 * The chain settings the API does not write (chains/operator-settings.ts): each names a chains
 * column of its kind whose database default is the declared one, and a value given as text is read
 * by its schema or refused with a sentence.
 */
import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chains } from "../db/schema.ts";
import { OPERATOR_CHAIN_SETTINGS, PHONE_LIMIT_DEFAULTS, readSettingValue } from "./operator-settings.ts";

const columns = getTableColumns(chains) as Record<string, { name: string; columnType: string; default: unknown; notNull: boolean }>;

describe("the chain settings the API does not write", () => {
  it("each is a NOT NULL chains column named as the setting, boolean or integer as its values", () => {
    for (const [name, setting] of Object.entries(OPERATOR_CHAIN_SETTINGS)) {
      const column = columns[setting.column];
      expect(column?.name, name).toBe(name);
      expect(column!.notNull, name).toBe(true);
      const sample = readSettingValue(name, setting.schema.safeParse("true").success ? "true" : "60");
      expect(sample.ok && typeof sample.value, name).toBe(column!.columnType === "MySqlBoolean" ? "boolean" : "number");
    }
  });

  it("the phone limits' columns default to PHONE_LIMIT_DEFAULTS, each within what the command accepts", () => {
    const byColumn: Record<string, number> = {
      phoneVerificationSendIntervalSeconds: PHONE_LIMIT_DEFAULTS.sendIntervalSeconds,
      phoneVerificationSendsPerUser: PHONE_LIMIT_DEFAULTS.sendsPerUser,
      phoneVerificationSendsPerNumber: PHONE_LIMIT_DEFAULTS.sendsPerNumber,
      phoneVerificationSendsPerChain: PHONE_LIMIT_DEFAULTS.sendsPerChain,
      phoneVerificationAttemptsPerUser: PHONE_LIMIT_DEFAULTS.attemptsPerUser,
      phoneVerificationAttemptsPerNumber: PHONE_LIMIT_DEFAULTS.attemptsPerNumber,
      phoneVerificationLimitWindowSeconds: PHONE_LIMIT_DEFAULTS.windowSeconds,
    };
    for (const [key, value] of Object.entries(byColumn)) {
      expect(columns[key]!.default, key).toBe(value);
      expect(readSettingValue(columns[key]!.name, String(value)), key).toMatchObject({ ok: true, value });
    }
  });

  it("reads text values and refuses unknown names and bad values with the reason", () => {
    expect(readSettingValue("restrict_campaign_enable", " TRUE ")).toMatchObject({ ok: true, value: true, column: "restrictCampaignEnable" });
    expect(readSettingValue("restrict_campaign_enable", "no")).toMatchObject({ ok: true, value: false });
    expect(readSettingValue("phone_verification_sends_per_user", "3")).toMatchObject({ ok: true, value: 3 });
    const refusals: Array<[string, string, string]> = [
      ["verify_phone_numbers", "true", "unknown setting verify_phone_numbers (settings: restrict_campaign_enable, "],
      ["toString", "1", "unknown setting toString"],
      ["restrict_campaign_enable", "maybe", "restrict_campaign_enable: must be true or false"],
      ["phone_verification_sends_per_user", "0", "phone_verification_sends_per_user: must be at least 1"],
      ["phone_verification_sends_per_user", "2.5", "must be a whole number"],
      ["phone_verification_sends_per_user", "-1", "must be a whole number"],
      ["phone_verification_limit_window_seconds", "59", "must be at least 60"],
      ["phone_verification_attempts_per_number", "1001", "must be at most 1000"],
      ["phone_verification_sends_per_number", "1000001", "must be at most 1000000"],
    ];
    for (const [name, text, reason] of refusals) {
      const read = readSettingValue(name, text);
      expect(read.ok, `${name} ${text}`).toBe(false);
      expect(!read.ok && read.reason, `${name} ${text}`).toContain(reason);
    }
  });
});
