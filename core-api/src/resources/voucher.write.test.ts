import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertBusiness } from "../businesses/business-repository.ts";
import { currencies } from "../db/schema.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { allVoucherRows, seedCampaign, seedUser, voucherRow } from "../vouchers/voucher-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let campaign: number;
let user: number;
let eur: number;
let other: { chain: number; campaign: number; user: number; business: number };
let deletedCampaign: number;
let shop: number;

beforeAll(async () => {
  w = await startResourcesWorld();
  const db = w.core.db;
  campaign = await seedCampaign(db, w.core.chainId);
  user = await seedUser(db, w.core.chainId);
  deletedCampaign = await seedCampaign(db, w.core.chainId, { deleted: true });
  eur = (await db.select().from(currencies).where(eq(currencies.code, "EUR")))[0]!.id;
  shop = (await insertBusiness(db, { chainId: w.core.chainId, name: "Shop" }, w.now())).id;
  const chain = await w.core.createChain("Other");
  other = {
    chain,
    campaign: await seedCampaign(db, chain),
    user: await seedUser(db, chain),
    business: (await insertBusiness(db, { chainId: chain, name: "Other Shop" }, w.now())).id,
  };
});
afterAll(() => w.core.close());

const KEY = /^[0-9A-Za-z]{64}$/;
const basket = (extra: Record<string, unknown> = {}) => ({
  type: "basket",
  status: "generated",
  campaign: { id: campaign },
  user: { id: user },
  expiry_date: "2027-01-01T00:00:00Z",
  amount: 10,
  ...extra,
});
const post = (body: unknown, headers?: Record<string, string>) => w.call("POST", "/resources/voucher", body, headers);
const created = async (body: unknown) => {
  const res = await post(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as Record<string, any>;
};

describe("POST /resources/voucher", () => {
  it("creates a voucher with a generated key and returns it at the requested level", async () => {
    w.setNow("2026-01-01T01:00:00Z");
    const res = await post(basket({ title: "Ten off", notes: "n", currency: { id: eur } }), { "X-Service-Response-Recursion-Level": "4" });
    expect(res.status).toBe(200);
    const v = res.body.results;
    expect(v.key).toMatch(KEY);
    expect(v).toMatchObject({
      type: "basket",
      status: "generated",
      amount: 10,
      campaign: { id: campaign },
      user: { id: user },
      currency: { id: eur },
      creating_user: { id: w.admin.id },
      deleted: false,
      title: "Ten off",
      expiry_date: "2027-01-01T00:00:00Z",
      created_date: "2026-01-01T01:00:00Z",
      last_modified_date: "2026-01-01T01:00:00Z",
      locked_until: "2026-01-01T01:00:00Z",
      redeemed_date: null,
      db_redeemed_date: null,
      discount_ratio: null,
      honour_code: null,
      parent_voucher: null,
    });
    expect(await voucherRow(w.core.db, v.id)).toMatchObject({
      chainId: w.core.chainId,
      key: v.key,
      type: "basket",
      status: "generated",
      campaignId: campaign,
      userId: user,
      creatingUserId: w.admin.id,
      currencyId: eur,
      amount: 10,
      title: "Ten off",
      notes: "n",
      expiryDate: new Date("2027-01-01T00:00:00Z"),
      lockedUntil: new Date("2026-01-01T01:00:00Z"),
      deleted: false,
      lastUpdatedBy: w.admin.id,
    });
  });

  it("records the creating admin as creating_user, filterable; a privileged token's voucher has none", async () => {
    const clerk = await w.core.admin({ write: true, read: true });
    const byClerk = await w.core.json("/resources/voucher", { method: "POST", headers: { ...clerk.headers, "content-type": "application/json" }, body: JSON.stringify(basket({ title: "by clerk" })) });
    expect(byClerk.status, JSON.stringify(byClerk.body)).toBe(200);
    expect(byClerk.body.results.creating_user).toEqual({ id: clerk.id });
    const client = await seedClient(w.core.db, w.core.chainId, w.now());
    const token = await seedToken(w.core.db, w.core.chainId, client.id, w.now());
    const byToken = await w.core.json("/resources/voucher", {
      method: "POST", headers: { Authorization: `Bearer ${token.row.id}:${token.secret}`, "X-Service-Chain-ID": String(w.core.chainId), "content-type": "application/json" },
      body: JSON.stringify(basket({ title: "by token" })),
    });
    expect(byToken.status, JSON.stringify(byToken.body)).toBe(200);
    expect(byToken.body.results.creating_user).toBeNull();
    expect((await voucherRow(w.core.db, byToken.body.results.id))!.creatingUserId).toBeNull();
    // filtering on it finds the clerk's voucher, by id or [id], and nothing of the token's
    for (const query of [`creating_user=${clerk.id}`, `creating_user[id]=${clerk.id}`]) {
      const list = await w.call("GET", `/resources/vouchers?${query}`);
      expect(list.status).toBe(200);
      expect(list.body.results.resources.map((r: { id: number }) => r.id), query).toEqual([byClerk.body.results.id]);
    }
  });

  it("gives every voucher its own 64-character base62 key", async () => {
    const keys = new Set<string>();
    for (let i = 0; i < 15; i++) {
      const v = await created(basket());
      expect(v.key).toMatch(KEY);
      keys.add(v.key);
      expect((await voucherRow(w.core.db, v.id))!.key).toBe(v.key);
    }
    expect(keys.size).toBe(15);
  });

  it("creates each type with the fields that apply to it", async () => {
    const pct = await created(basket({ type: "basket_pct", amount: undefined, discount_ratio: 0.25, amount_redeemed: 3 }));
    expect(await voucherRow(w.core.db, pct.id)).toMatchObject({ type: "basket_pct", discountRatio: 0.25, amount: null, amountRedeemed: 3 });
    const honour = await created(basket({ type: "honour", amount: null, honour_code: "FREE-COFFEE" }));
    expect(await voucherRow(w.core.db, honour.id)).toMatchObject({ type: "honour", honourCode: "FREE-COFFEE", amount: null });
    const unit = await created(basket({ type: "basket_fixed_unit", amount: 2, amount_redeemed: 2 }));
    expect(await voucherRow(w.core.db, unit.id)).toMatchObject({ type: "basket_fixed_unit", amount: 2, amountRedeemed: 2 });
  });

  it("accepts expiry_date and locked_until as RFC 3339 (Z, offset, fraction) or YYYY-MM-DD HH:MM:SS, and null expiry", async () => {
    const sql = await created(basket({ expiry_date: "2027-06-30 23:59:59", locked_until: "2026-02-01 00:00:00" }));
    expect(await voucherRow(w.core.db, sql.id)).toMatchObject({
      expiryDate: new Date("2027-06-30T23:59:59Z"),
      lockedUntil: new Date("2026-02-01T00:00:00Z"),
    });
    expect(sql.expiry_date).toBe("2027-06-30T23:59:59Z");
    const offset = await created(basket({ expiry_date: "2027-06-30T12:00:00+02:00", locked_until: "2026-02-01T00:00:00.900Z" }));
    expect(offset).toMatchObject({ expiry_date: "2027-06-30T10:00:00Z", locked_until: "2026-02-01T00:00:00Z" });
    expect((await voucherRow(w.core.db, offset.id))!.lockedUntil).toEqual(new Date("2026-02-01T00:00:00Z"));
    const never = await created(basket({ expiry_date: null }));
    expect((await voucherRow(w.core.db, never.id))!.expiryDate).toBeNull();
    const old = await w.call("GET", `/resources/voucher/${sql.id}`, undefined, { "X-Service-API-version": "1.5.8" });
    expect(old.body.results.expiry_date).toBe("2027-06-30 23:59:59");
  });

  it("accepts a form body (references as campaign[id], numbers converted)", async () => {
    const res = await w.core.json("/resources/voucher", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        type: "basket_pct",
        status: "claimed",
        "campaign[id]": String(campaign),
        "user[id]": String(user),
        expiry_date: "2027-01-01 00:00:00",
        discount_ratio: "0.5",
        "redemption_exclusive_business[id]": String(shop),
        title: "",
      }).toString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await voucherRow(w.core.db, res.body.results.id)).toMatchObject({
      type: "basket_pct",
      status: "claimed",
      discountRatio: 0.5,
      redemptionExclusiveBusinessId: shop,
      title: null,
    });
  });

  it("creating a redeemed voucher sets redeemed_date and db_redeemed_date to now", async () => {
    w.setNow("2026-01-01T04:00:00Z");
    const v = await created(basket({ status: "redeemed" }));
    expect(v).toMatchObject({ redeemed_date: "2026-01-01T04:00:00Z", db_redeemed_date: "2026-01-01T04:00:00Z" });
    expect(await voucherRow(w.core.db, v.id)).toMatchObject({
      status: "redeemed",
      redeemedDate: new Date("2026-01-01T04:00:00Z"),
      dbRedeemedDate: new Date("2026-01-01T04:00:00Z"),
    });
  });

  it("refuses bad bodies with the spec's errors and writes nothing", async () => {
    const omit = (key: string) => Object.fromEntries(Object.entries(basket()).filter(([k]) => k !== key));
    const cases: Array<[string, unknown, number, string]> = [
      ["unknown property", basket({ colour: "red" }), 419, "parameter_invalid"],
      ["RO key", basket({ key: "k".repeat(64) }), 419, "parameter_invalid"],
      ["RO id", basket({ id: 5 }), 419, "parameter_invalid"],
      ["RO created_date", basket({ created_date: "2026-01-01T00:00:00Z" }), 419, "parameter_invalid"],
      ["RO last_modified_date", basket({ last_modified_date: "2026-01-01T00:00:00Z" }), 419, "parameter_invalid"],
      ["RO redeemed_date", basket({ redeemed_date: "2026-01-01T00:00:00Z" }), 419, "parameter_invalid"],
      ["RO db_redeemed_date", basket({ db_redeemed_date: "2026-01-01T00:00:00Z" }), 419, "parameter_invalid"],
      ["RO third_party_id", basket({ third_party_id: 7 }), 419, "parameter_invalid"],
      ["creating_user not writable", basket({ creating_user: { id: user } }), 419, "parameter_invalid"],
      ["parent_voucher not writable", basket({ parent_voucher: { id: 1 } }), 419, "parameter_invalid"],
      ["deleted not writable", basket({ deleted: false }), 419, "parameter_invalid"],
      ["amount not a number", basket({ amount: "ten" }), 419, "parameter_invalid"],
      ["unknown type", basket({ type: "gift" }), 419, "parameter_invalid"],
      ["unknown status", basket({ status: "used" }), 419, "parameter_invalid"],
      ["expiry_date not a datetime", basket({ expiry_date: "tomorrow" }), 419, "parameter_invalid"],
      ["expiry_date no such day", basket({ expiry_date: "2026-02-30 10:00:00" }), 419, "parameter_invalid"],
      ["expiry_date without zone", basket({ expiry_date: "2027-01-01T00:00:00" }), 419, "parameter_invalid"],
      ["locked_until null", basket({ locked_until: null }), 419, "parameter_invalid"],
      ["campaign not an object", basket({ campaign: campaign }), 419, "parameter_invalid"],
      ["user id not an integer", basket({ user: { id: "x" } }), 419, "parameter_invalid"],
      ["discount_ratio over 1", basket({ type: "basket_pct", amount: null, discount_ratio: 1.5 }), 419, "parameter_invalid"],
      ["platform_price_rule_id not an integer", basket({ platform_price_rule_id: 1.5 }), 419, "parameter_invalid"],
      ["basket with discount_ratio", basket({ discount_ratio: 0.5 }), 419, "parameter_invalid"],
      ["basket with honour_code", basket({ honour_code: "H" }), 419, "parameter_invalid"],
      ["basket amount 0", basket({ amount: 0 }), 419, "parameter_invalid"],
      ["basket amount negative", basket({ amount: -1 }), 419, "parameter_invalid"],
      ["basket amount_redeemed over amount", basket({ amount_redeemed: 11 }), 419, "parameter_invalid"],
      ["basket amount_redeemed negative", basket({ amount_redeemed: -1 }), 419, "parameter_invalid"],
      ["basket_pct with amount", basket({ type: "basket_pct", discount_ratio: 0.1 }), 419, "parameter_invalid"],
      ["honour with amount", basket({ type: "honour", honour_code: "H" }), 419, "parameter_invalid"],
      ["honour with empty honour_code", basket({ type: "honour", amount: null, honour_code: "" }), 419, "parameter_invalid"],
      ["honour with amount_redeemed", basket({ type: "honour", amount: null, honour_code: "H", amount_redeemed: 1 }), 419, "parameter_invalid"],
      ["basket_fixed_unit with discount_ratio", basket({ type: "basket_fixed_unit", discount_ratio: 0.2 }), 419, "parameter_invalid"],
      ["basket without amount", omit("amount"), 441, "parameter_missing"],
      ["basket with amount null", basket({ amount: null }), 441, "parameter_missing"],
      ["basket_fixed_unit without amount", basket({ type: "basket_fixed_unit", amount: null }), 441, "parameter_missing"],
      ["basket_pct without discount_ratio", basket({ type: "basket_pct", amount: null }), 441, "parameter_missing"],
      ["honour without honour_code", basket({ type: "honour", amount: null }), 441, "parameter_missing"],
      ["description too long", basket({ description: "d".repeat(4097) }), 482, "string_parameter_too_long"],
      ["notes too long", basket({ notes: "n".repeat(4097) }), 482, "string_parameter_too_long"],
      ["image_url too long", basket({ image_url: "i".repeat(4097) }), 482, "string_parameter_too_long"],
      ["title too long", basket({ title: "t".repeat(256) }), 482, "string_parameter_too_long"],
      ["text too long", basket({ text: "t".repeat(256) }), 482, "string_parameter_too_long"],
      ["honour_code too long", basket({ type: "honour", amount: null, honour_code: "h".repeat(256) }), 482, "string_parameter_too_long"],
      ["locking_code too long", basket({ locking_code: "l".repeat(256) }), 482, "string_parameter_too_long"],
      ["basket_owner_code_exclusive too long", basket({ basket_owner_code_exclusive: "b".repeat(256) }), 482, "string_parameter_too_long"],
      ["platform_discount_code too long", basket({ platform_discount_code: "p".repeat(129) }), 482, "string_parameter_too_long"],
      ["platform_discount_code_id too long", basket({ platform_discount_code_id: "p".repeat(129) }), 482, "string_parameter_too_long"],
      ["missing expiry_date", omit("expiry_date"), 441, "parameter_missing"],
      ["missing status", omit("status"), 441, "parameter_missing"],
      ["missing type", omit("type"), 441, "parameter_missing"],
      ["missing campaign", omit("campaign"), 441, "parameter_missing"],
      ["missing user", omit("user"), 441, "parameter_missing"],
      ["unknown campaign", basket({ campaign: { id: 999999 } }), 419, "parameter_invalid"],
      ["unknown user", basket({ user: { id: 999999 } }), 419, "parameter_invalid"],
      ["deleted campaign", basket({ campaign: { id: deletedCampaign } }), 419, "parameter_invalid"],
      ["other chain's campaign", basket({ campaign: { id: other.campaign } }), 419, "parameter_invalid"],
      ["other chain's user", basket({ user: { id: other.user } }), 419, "parameter_invalid"],
      ["unknown currency", basket({ currency: { id: 999999 } }), 419, "parameter_invalid"],
      ["other chain's business", basket({ redemption_exclusive_business: { id: other.business } }), 419, "parameter_invalid"],
      ["basket reference", basket({ basket: { id: 1 } }), 419, "parameter_invalid"],
      ["task reference", basket({ task: { id: 1 } }), 419, "parameter_invalid"],
      ["return transaction reference", basket({ generating_return_transaction: { id: 1 } }), 419, "parameter_invalid"],
    ];
    const before = await allVoucherRows(w.core.db);
    for (const [what, body, code, name] of cases) {
      const res = await post(body);
      expect({ what, ...errorOf(res) }).toEqual({ what, status: 400, code, name });
    }
    expect(errorOf(await w.call("POST", "/resources/voucher?status=claimed", basket()))).toMatchObject({ code: 419 });
    expect(errorOf(await w.call("POST", "/resources/voucher/5", basket()))).toMatchObject({ code: 544 });
    expect(await allVoucherRows(w.core.db)).toEqual(before);
  });

  it("accepts explicit nulls for the optional references", async () => {
    const v = await created(basket({ currency: null, basket: null, task: null, generating_return_transaction: null, redemption_exclusive_business: null }));
    expect(await voucherRow(w.core.db, v.id)).toMatchObject({ currencyId: null, basketId: null, taskId: null, generatingReturnTransactionId: null });
  });
});
