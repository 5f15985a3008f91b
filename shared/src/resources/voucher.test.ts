import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RESOURCES } from "./resource-registry.ts";
import { parseDateTimeInput, voucherResource, voucherTypeRules } from "./voucher.ts";

const prop = (name: string) => voucherResource.properties.get(name)!;
const flagged = (flag: "filter" | "sort" | "identifier" | "immutable" | "readOnly" | "requiredOnPost") =>
  [...voucherResource.properties.values()].filter((p) => p[flag]).map((p) => p.name).sort();

describe("Voucher declaration (spec field table)", () => {
  it("has every field of the table with its level", () => {
    const levels = Object.fromEntries([...voucherResource.properties.values()].map((p) => [p.name, p.level]));
    expect(levels).toEqual({
      amount: 1, amount_redeemed: 2, basket: 2, basket_owner_code_exclusive: 2, campaign: 1, created_date: 2, creating_user: 2,
      currency: 2, db_redeemed_date: 2, deleted: 1, description: 2, discount_ratio: 2, expiry_date: 1, generating_return_transaction: 2,
      honour_code: 2, id: 0, image_url: 2, key: 1, last_modified_date: 2, locked_until: 2, locking_code: 2, notes: 2, parent_voucher: 2,
      redeemed_date: 2, redemption_exclusive_business: 2, platform_discount_code: 2, platform_discount_code_id: 2,
      platform_price_rule_id: 2, status: 1, task: 2, text: 2, third_party_id: 2, title: 2, type: 1, user: 1,
    });
    expect(RESOURCES.get("voucher")).toBe(voucherResource);
    expect(voucherResource.path).toBe("/resources/voucher");
    expect(voucherResource.pluralPath).toBe("/resources/vouchers");
    expect(voucherResource.identifiers).toEqual(["id", "key"]);
  });

  it("carries the spec's flags: filters, sorts, identifiers, immutable, read-only, required on POST", () => {
    expect(flagged("filter")).toEqual(["campaign", "creating_user", "id", "key", "parent_voucher", "status", "type", "user"]);
    expect(flagged("sort")).toEqual(["campaign", "created_date", "expiry_date", "id", "last_modified_date", "status", "user"]);
    expect(flagged("identifier")).toEqual(["key"]);
    expect(flagged("immutable")).toEqual([
      "basket", "campaign", "created_date", "creating_user", "currency", "db_redeemed_date", "generating_return_transaction", "key",
      "last_modified_date", "locked_until", "parent_voucher", "redeemed_date", "task", "type", "user",
    ]);
    // discount_ratio is marked RO in the spec but lists ops post, put, patch: the ops win (see the declaration).
    expect(flagged("readOnly")).toEqual(["created_date", "db_redeemed_date", "id", "key", "last_modified_date", "redeemed_date", "third_party_id"]);
    expect(flagged("requiredOnPost")).toEqual(["campaign", "expiry_date", "status", "type", "user"]);
  });

  it("derives the write methods from ops, RO and Imm", () => {
    const ops = (name: string) => [...prop(name).writeOps].sort();
    expect(ops("campaign")).toEqual(["post"]);
    expect(ops("type")).toEqual(["post"]);
    expect(ops("user")).toEqual(["post"]);
    expect(ops("status")).toEqual(["patch", "post", "put"]);
    expect(ops("discount_ratio")).toEqual(["patch", "post", "put"]);
    expect(ops("deleted")).toEqual([]);
    expect(ops("creating_user")).toEqual([]);
    expect(ops("parent_voucher")).toEqual([]);
    expect(ops("key")).toEqual([]);
    expect(prop("status").meta["x-service-operations"]).toEqual(["post", "put", "patch", "get", "delete"]);
  });

  it("reads kinds and nullability (plain nullable numbers included), references by name", () => {
    expect(prop("amount")).toMatchObject({ kind: "number", nullable: true });
    expect(prop("amount_redeemed")).toMatchObject({ kind: "number", nullable: true });
    expect(prop("platform_price_rule_id")).toMatchObject({ kind: "integer", nullable: true });
    expect(prop("expiry_date")).toMatchObject({ kind: "date-time", nullable: true });
    expect(prop("locked_until")).toMatchObject({ kind: "date-time", nullable: false });
    expect(prop("campaign")).toMatchObject({ kind: "reference", nullable: false, reference: "campaign" });
    expect(prop("user")).toMatchObject({ kind: "reference", nullable: false, reference: "user" });
    expect(prop("parent_voucher")).toMatchObject({ kind: "reference", nullable: true, reference: "voucher" });
    expect(prop("redemption_exclusive_business")).toMatchObject({ kind: "reference", reference: "business" });
    expect(prop("status")).toMatchObject({ kind: "string", nullable: false });
    expect(prop("deleted")).toMatchObject({ kind: "boolean", nullable: false });
  });

  it("enforces the maxima and ranges of the table", () => {
    const ok = (name: string, v: unknown) => prop(name).schema.safeParse(v).success;
    for (const [name, max] of [
      ["description", 4096], ["notes", 4096], ["image_url", 4096], ["title", 255], ["text", 255], ["honour_code", 255],
      ["locking_code", 255], ["basket_owner_code_exclusive", 255], ["platform_discount_code", 128], ["platform_discount_code_id", 128],
    ] as const) {
      expect({ name, max: ok(name, "x".repeat(max)), over: ok(name, "x".repeat(max + 1)), nul: ok(name, null) }).toEqual({ name, max: true, over: false, nul: true });
    }
    expect([ok("key", "k".repeat(64)), ok("key", "k".repeat(63)), ok("key", "k".repeat(65))]).toEqual([true, false, false]);
    expect([ok("discount_ratio", 0), ok("discount_ratio", 1), ok("discount_ratio", 1.01), ok("discount_ratio", -0.01)]).toEqual([true, true, false, false]);
    expect([ok("type", "basket_fixed_unit"), ok("type", "voucher")]).toEqual([true, false]);
    expect([ok("status", "redeemed"), ok("status", "expired")]).toEqual([true, false]);
  });

  it("puts the vendor keys and the status rule into the JSON schema", () => {
    const json = z.toJSONSchema(voucherResource.fields, { io: "input", unrepresentable: "any" }) as any;
    expect(json.properties.key).toMatchObject({ "x-service-identifier": true, "x-service-filter-property": true, "x-service-immutable": true, readOnly: true, minLength: 64, maxLength: 64 });
    expect(json.properties.expiry_date["x-service-required-on-post"]).toBe(true);
    expect(json.properties.status.description).toMatch(/redeemed voucher's status never changes.*419 parameter_invalid/);
    expect(voucherResource.description).toMatch(/cannot be undeleted/);
    expect(voucherResource.omitFor?.end_user).toEqual(["creating_user", "db_redeemed_date", "deleted", "user"]);
  });
});

describe("parseDateTimeInput", () => {
  it("reads RFC 3339 (Z, offset, fraction) and YYYY-MM-DD HH:MM:SS as UTC", () => {
    expect(parseDateTimeInput("2026-11-21T10:00:00Z")).toEqual(new Date("2026-11-21T10:00:00Z"));
    expect(parseDateTimeInput("2026-11-21T10:00:00+01:00")).toEqual(new Date("2026-11-21T09:00:00Z"));
    expect(parseDateTimeInput("2026-11-21T10:00:00.250Z")).toEqual(new Date("2026-11-21T10:00:00.250Z"));
    expect(parseDateTimeInput("2026-11-21 10:00:00")).toEqual(new Date("2026-11-21T10:00:00Z"));
    expect(parseDateTimeInput("2024-02-29 00:00:00")).toEqual(new Date("2024-02-29T00:00:00Z"));
  });

  it("refuses other forms, impossible days and years outside 1000-9999", () => {
    for (const s of ["2026-11-21", "2026-11-21T10:00:00", "2026-11-21 10:00", "21-11-2026 10:00:00", "2026-02-29 00:00:00", "2026-13-01 00:00:00", "2026-01-01 24:00:00", "0999-01-01 00:00:00", "tomorrow", ""]) {
      expect({ s, parsed: parseDateTimeInput(s) }).toEqual({ s, parsed: null });
    }
  });
});

describe("voucherTypeRules", () => {
  it("is a discriminated union on type with one member per voucher type", () => {
    expect(voucherTypeRules.def.discriminator).toBe("type");
    expect(voucherTypeRules.options).toHaveLength(4);
    expect(voucherTypeRules.safeParse({ type: "basket_pct", discount_ratio: 0.5 }).success).toBe(true);
    expect(voucherTypeRules.safeParse({ type: "basket_pct", amount: 5 }).success).toBe(false);
  });
});
