/**
 * add-basket and the first-transaction stores over HTTP (spec, "Internal call: add-user":
 * "First-transaction stores"; handbook, "first transaction"): with the chain's
 * first_transaction_sets_home_and_signup_store, the first basket of a user without previous
 * baskets fills the empty signup and home stores from its branch business; later baskets never
 * change them; no branch business means no change.
 */
import { addBasketResponseSchema } from "@service/shared/internal/add-basket";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ENCODINGS } from "../../../test/helpers/internal-calls.ts";
import { chains } from "../db/schema.ts";
import { addUserAsAdmin, call, userRow, writtenRows, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile();

let seq = 0;
const newUser = async (params: Record<string, unknown> = {}) => (await addUserAsAdmin(w, { username: `basket-${++seq}@example.com`, ...params } as never)).body.results.user;
const basket = (params: Record<string, unknown>, headers = w.adminHeaders, encoding: (typeof ENCODINGS)[number] = "json") =>
  call(w.core, "POST", "/internal/add-basket", headers, { chain_id: w.core.chainId, ...params } as never, encoding);
const setRule = (on: boolean) => w.core.db.update(chains).set({ firstTransactionSetsHomeAndSignupStore: on }).where(eq(chains.id, w.core.chainId));

describe("add-basket", () => {
  for (const encoding of ENCODINGS) {
    it(`records a basket (${encoding})`, async () => {
      const user = await newUser();
      const items = [{ sku: "A-1", description: "Apples", quantity: 2, price: 1.25 }, { quantity: 1, price: 7.5 }];
      const { status, body } = await basket({ user_id: user.id, branch_business_owner_code: w.stores[0]!.ownerCode, basket_total_price: "10.00", items: encoding === "json" ? items : JSON.stringify(items) }, w.adminHeaders, encoding);
      expect(status, JSON.stringify(body)).toBe(200);
      expect(addBasketResponseSchema.parse(body).results).toEqual({
        basket: {
          id: expect.any(Number), chain_id: w.core.chainId, user_id: user.id, branch_business_id: w.stores[0]!.id, basket_total_price: 10, items,
          retailer_basket_code: null, basket_platform_type: "in_store", basket_discount: "0.00", created_date: "2026-11-21T10:00:00Z",
        },
        pricing: expect.objectContaining({ basket_total_price: "10.00", basket_discount: "0.00", basket_final_price: "10.00", vouchers_applied: [] }),
        duplicate: false,
        issued_vouchers: [],
        result_type: "add-basket",
      });
    });
  }

  it("needs write access (admin or token), the user of the chain (68) and a live branch business (419); nothing written", async () => {
    const user = await newUser();
    expect((await basket({ user_id: user.id, basket_total_price: 5 }, w.token)).status).toBe(200);
    const reader = await w.core.admin({ read: true, assign: true });
    const { "X-Service-Chain-ID": _c, ...readerHeaders } = reader.headers;
    const before = await writtenRows(w.core);
    const cases: Array<[Record<string, unknown>, Record<string, string>, number]> = [
      [{ user_id: user.id, basket_total_price: 5 }, readerHeaders, 68],
      [{ user_id: 99_999_999, basket_total_price: 5 }, w.adminHeaders, 68],
      [{ user_id: user.id, basket_total_price: 5, branch_business_id: w.deletedStoreId }, w.adminHeaders, 419],
      [{ user_id: user.id, basket_total_price: 5, branch_business_id: w.otherChainStoreId }, w.adminHeaders, 419],
      [{ user_id: user.id, basket_total_price: 5, branch_business_owner_code: "F-1" }, w.adminHeaders, 419],
      [{ user_id: user.id }, w.adminHeaders, 441],
      [{ basket_total_price: 5 }, w.adminHeaders, 441],
      [{ user_id: user.id, basket_total_price: "ten" }, w.adminHeaders, 419],
      [{ user_id: user.id, basket_total_price: 5, items: [{ quantity: 0, price: 1 }] }, w.adminHeaders, 419],
      [{ user_id: user.id, basket_total_price: 5, items: "not json" }, w.adminHeaders, 419],
    ];
    expect(cases).toHaveLength(10);
    for (const [params, headers, code] of cases) {
      const res = await basket(params, headers);
      expect(res.body.error?.code, JSON.stringify(params)).toBe(code);
    }
    const noChain = await call(w.core, "POST", "/internal/add-basket", w.adminHeaders, { user_id: user.id, basket_total_price: 5 });
    expect(noChain.body.error.code).toBe(3);
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("first_transaction_sets_home_and_signup_store", () => {
  it("the first basket fills empty signup and home stores from its branch business; later ones never change them", async () => {
    await setRule(true);
    try {
      const [s1, s2] = w.stores;
      const user = await newUser();
      await basket({ user_id: user.id, branch_business_id: s1!.id, basket_total_price: 3 });
      expect(await userRow(w.core, user.id)).toMatchObject({ signupStoreId: s1!.id, homeStoreId: s1!.id });
      await call(w.core, "PUT", "/internal/alter-user", w.adminHeaders, { user_id: user.id, home_store_id: "" });
      await basket({ user_id: user.id, branch_business_id: s2!.id, basket_total_price: 3 });
      expect(await userRow(w.core, user.id)).toMatchObject({ signupStoreId: s1!.id, homeStoreId: null });
    } finally {
      await setRule(false);
    }
  });

  it("fills only the stores that are empty, by owner code too", async () => {
    await setRule(true);
    try {
      const [s1, s2] = w.stores;
      const user = await newUser({ home_store_id: s1!.id });
      await basket({ user_id: user.id, branch_business_owner_code: s2!.ownerCode, basket_total_price: 3 });
      expect(await userRow(w.core, user.id)).toMatchObject({ signupStoreId: s2!.id, homeStoreId: s1!.id });
    } finally {
      await setRule(false);
    }
  });

  it("a first basket without a branch business changes nothing, and the next one is no longer the first", async () => {
    await setRule(true);
    try {
      const user = await newUser();
      await basket({ user_id: user.id, basket_total_price: 3 });
      await basket({ user_id: user.id, branch_business_id: w.stores[0]!.id, basket_total_price: 3 });
      expect(await userRow(w.core, user.id)).toMatchObject({ signupStoreId: null, homeStoreId: null });
    } finally {
      await setRule(false);
    }
  });

  it("without the setting, the first basket changes nothing", async () => {
    const user = await newUser();
    await basket({ user_id: user.id, branch_business_id: w.stores[0]!.id, basket_total_price: 3 });
    expect(await userRow(w.core, user.id)).toMatchObject({ signupStoreId: null, homeStoreId: null });
  });

  it("two first baskets at once: only one counts as the first", async () => {
    await setRule(true);
    try {
      const [s1, s2] = w.stores;
      const user = await newUser();
      await Promise.all([basket({ user_id: user.id, branch_business_id: s1!.id, basket_total_price: 1 }), basket({ user_id: user.id, branch_business_id: s2!.id, basket_total_price: 1 })]);
      const row = await userRow(w.core, user.id);
      expect([s1!.id, s2!.id]).toContain(row!.signupStoreId);
      expect(row!.homeStoreId).toBe(row!.signupStoreId);
    } finally {
      await setRule(false);
    }
  });
});
