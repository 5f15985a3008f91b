/**
 * Bad input on every parameter of get-basket-price and add-basket (handbook, "Baskets"): each
 * answers its code, and nothing is written (users, baskets, vouchers, outbox compared before and
 * after). One table serves both calls; form bodies carry the lists as JSON text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basketWrittenRows, seedVoucher } from "../baskets/basket-test-support.ts";
import { addUserAsAdmin, call, startUsersWorld, type UsersWorld } from "../users/user-test-support.ts";

let w: UsersWorld;
let userId: number;
let voucherKey: string;
beforeAll(async () => {
  w = await startUsersWorld();
  userId = (await addUserAsAdmin(w, { username: "bad-input@example.com" })).body.results.user.id;
  voucherKey = (await seedVoucher(w.core, userId, "basket", { amount: 1 })).key;
}, 60_000);
afterAll(() => w.core.close());

const long = (n: number) => "x".repeat(n);
const line = (o: Record<string, unknown> = {}) => ({ retailer_item_code: "A", item_quantity: 1, item_price: 5, ...o });

/** [what, parameters replacing or adding to a good request (undefined removes one), code]. */
const CASES: Array<[string, Record<string, unknown>, number]> = [
  ["chain_id absent", { chain_id: undefined }, 3],
  ["chain_id not an integer", { chain_id: "one" }, 76],
  ["user_id not an integer", { user_id: "one" }, 419],
  ["user_id 0", { user_id: 0 }, 419],
  ["user_id of no user", { user_id: 99_999_999 }, 68],
  ["two member identifiers", { username: "bad-input@example.com" }, 419],
  ["member_number too long", { user_id: undefined, member_number: long(256) }, 482],
  ["username too long", { user_id: undefined, username: long(256) }, 482],
  ["authentication_point_identifier too long", { user_id: undefined, authentication_point_identifier: long(256) }, 482],
  ["member_number of no user", { user_id: undefined, member_number: "999999999" }, 68],
  ["branch_business_id not an integer", { branch_business_id: "S-1" }, 419],
  ["branch_business_id deleted", { branch_business_id: "DELETED" }, 419],
  ["branch_business_id of another chain", { branch_business_id: "FOREIGN" }, 419],
  ["branch_business_owner_code too long", { branch_business_owner_code: long(65) }, 482],
  ["branch_business_owner_code unknown", { branch_business_owner_code: "NOPE" }, 419],
  ["basket_platform_type unknown", { basket_platform_type: "mail_order" }, 419],
  ["retailer_basket_code too long", { retailer_basket_code: long(256) }, 482],
  ["basket_total_price absent", { basket_total_price: undefined }, 441],
  ["basket_total_price 3 decimals", { basket_total_price: "10.005" }, 419],
  ["basket_total_price as a number with 3 decimals", { basket_total_price: 10.005 }, 419],
  ["basket_total_price not a number", { basket_total_price: "ten" }, 419],
  ["basket_total_price too large", { basket_total_price: 1e11 }, 419],
  ["basket_items not JSON", { basket_items: "[{" }, 419],
  ["basket_items not a list", { basket_items: { a: 1 } }, 419],
  ["basket_items over 500 lines", { basket_items: Array.from({ length: 501 }, (_, i) => line({ retailer_item_code: `L${i}` })) }, 419],
  ["item_price 3 decimals", { basket_items: [line({ item_price: "5.005" })] }, 419],
  ["item_price missing", { basket_items: [{ retailer_item_code: "A", item_quantity: 1 }] }, 419],
  ["item_quantity 0", { basket_items: [line({ item_quantity: 0 })] }, 419],
  ["item_quantity not a number", { basket_items: [line({ item_quantity: "two" })] }, 419],
  ["retailer_item_code twice", { basket_items: [line(), line()] }, 419],
  ["retailer_item_code too long", { basket_items: [line({ retailer_item_code: long(65) })] }, 419],
  ["item_barcode too long", { basket_items: [line({ item_barcode: long(65) })] }, 419],
  ["exclude_from_vouchers not a boolean", { basket_items: [line({ exclude_from_vouchers: "maybe" })] }, 419],
  ["an unknown line field", { basket_items: [line({ colour: "red" })] }, 419],
  ["items and basket_items both", { basket_items: [line()], items: [{ quantity: 1, price: 5 }] }, 419],
  ["items price 3 decimals", { items: [{ quantity: 1, price: 5.005 }] }, 419],
  ["basket_vouchers over 20", { basket_vouchers: Array.from({ length: 21 }, (_, i) => `k${i}`) }, 419],
  ["a basket_vouchers entry without key", { basket_vouchers: [{ locking_code: "L" }] }, 419],
  ["expected_discount 3 decimals", { basket_vouchers: [{ key: "k", expected_discount: "1.005" }] }, 419],
  ["a voucher key of no voucher", { basket_vouchers: ["f".repeat(64)] }, 68],
  ["a voucher key twice", { basket_vouchers: ["VOUCHER", "VOUCHER"] }, 419],
];

/** The request of a case: a good one changed by the case's parameters (placeholders resolved). */
function requestOf(changes: Record<string, unknown>): Record<string, unknown> {
  const names: Record<string, unknown> = { DELETED: w.deletedStoreId, FOREIGN: w.otherChainStoreId, VOUCHER: voucherKey };
  const resolve = (v: unknown): unknown => (Array.isArray(v) ? v.map(resolve) : typeof v === "string" && v in names ? names[v] : v);
  const params: Record<string, unknown> = { chain_id: w.core.chainId, user_id: userId, basket_total_price: "5.00", basket_items: [line()] };
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete params[k];
    else params[k] = resolve(v);
  }
  if ("items" in changes && !("basket_items" in changes)) delete params.basket_items;
  return params;
}

describe.each(["get-basket-price", "add-basket"])("%s: bad input", (name) => {
  it(`answers each parameter's code and writes nothing (${CASES.length} cases)`, async () => {
    const before = await basketWrittenRows(w.core);
    const problems: string[] = [];
    // A token names its chain for get-basket-price (get-basket-price.test.ts); add-basket needs chain_id.
    for (const [what, changes, code] of CASES.filter(([what]) => !(name === "get-basket-price" && what === "chain_id absent"))) {
      const res = await call(w.core, "POST", `/internal/${name}`, w.token, requestOf(changes) as never);
      if (res.body?.error?.code !== code) problems.push(`${what}: expected ${code}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(problems).toEqual([]);
    expect(await basketWrittenRows(w.core)).toBe(before);
  });

  it("refuses a form body's bad list text alike", async () => {
    const before = await basketWrittenRows(w.core);
    const res = await call(w.core, "POST", `/internal/${name}`, w.token, { chain_id: w.core.chainId, user_id: userId, basket_total_price: "5", basket_items: "[{\"item_price\": 1.001}]" } as never, "form");
    expect(res.body.error?.code).toBe(419);
    expect(await basketWrittenRows(w.core)).toBe(before);
  });
});

it("add-basket needs a member (441); get-basket-price prices an anonymous basket", async () => {
  const params = { chain_id: w.core.chainId, basket_total_price: "5.00" };
  expect((await call(w.core, "POST", "/internal/add-basket", w.token, params as never)).body.error?.code).toBe(441);
  expect((await call(w.core, "POST", "/internal/get-basket-price", w.token, params as never)).status).toBe(200);
});

describe("the schema document's examples of the basket calls", () => {
  it("shows a request example each call accepts and a results example its own schema accepts", async () => {
    const { getBasketPriceCall } = await import("@service/shared/internal/get-basket-price");
    const { addBasketCall } = await import("@service/shared/internal/add-basket");
    const { alterChainCall } = await import("@service/shared/internal/alter-chain");
    const doc = (await w.core.json("/resources/schema")).body;
    for (const c of [getBasketPriceCall, addBasketCall, alterChainCall]) {
      const op = doc.paths[c.path][c.method.toLowerCase()];
      expect(op.requestBody.content["application/json"].example, c.name).toEqual(c.examples!.request);
      if (c.examples!.request) expect(c.params.safeParse(c.examples!.request).success, c.name).toBe(true);
      expect(c.results.safeParse(op.responses["200"].content["application/json"].example.results).success, c.name).toBe(true);
    }
  });
});
