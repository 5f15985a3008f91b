/**
 * The demo's checkout step (scripts/demo/checkout.ts) against a core API served over real HTTP:
 * the app's backend claims two vouchers with a chain-scope token it gets from the Resources API,
 * get-basket-price applies both, add-basket redeems both, the same confirmation is a replay, and
 * a return gives the returned item's discount back as a claimed replacement voucher. Checked in
 * the database, not only in what the step reports.
 */
import { serve, type ServerType } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../core-api/src/app.ts";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { baskets, vouchers } from "../core-api/src/db/schema.ts";
import { demoCheckout, pricedLines } from "../scripts/demo/checkout.ts";
import { CoreApiClient } from "../scripts/lib/http-client.ts";
import { startCore, TEST_SECRET_KEY, type TestCore } from "./helpers/core.ts";

let core: TestCore;
let server: ServerType;
let base: string;
beforeAll(async () => {
  core = await startCore();
  const app = createApp({ db: core.db, config: loadCoreConfig({ CORE_DB_NAME: core.dbName, SERVICE_SECRET_KEY: TEST_SECRET_KEY, LOG_LEVEL: "error" }) });
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await core?.close();
});

describe("npm run demo, step 7: checkout", () => {
  it("claims, prices, confirms, replays and returns; twice on the same chain", async () => {
    const admin = await core.admin({ super_user: true });
    for (let run = 0; run < 2; run++) {
      const client = new CoreApiClient(base);
      await client.login(admin.username, admin.password, core.chainId);
      const out = await demoCheckout(client, core.chainId);
      expect(out.problems).toEqual([]);
      expect(out.pricing).toMatchObject({ basket_total_price: "26.14", basket_discount: "2.62", basket_final_price: "23.52" });
      // what the demo prints of the answer: item_price comes back as a JSON number
      expect(pricedLines(out.pricing.basket_items)[0]).toMatch(/^Coffee beans 500 g\s+2 x  14\.90  -\s*\d+\.\d\d  =\s+\d+\.\d\d$/);
      const redeemed = await core.db.select().from(vouchers).where(eq(vouchers.basketId, out.sale.basket.id));
      expect(redeemed.map((v) => v.key).sort()).toEqual([...out.voucherKeys].sort());
      expect(redeemed.every((v) => v.status === "redeemed")).toBe(true);
      const [replacement] = await core.db.select().from(vouchers).where(eq(vouchers.generatingReturnTransactionId, out.returned.basket.id));
      expect(replacement).toMatchObject({ status: "claimed", amount: 1, userId: out.memberId });
      const stored = await core.db.select().from(baskets).where(eq(baskets.retailerBasketCode, out.sale.basket.retailer_basket_code));
      expect(stored).toHaveLength(1);
    }
  });
});
