/**
 * One deadline per request on the connector (REQUEST_DEADLINE_MS): with the pool's own timeouts
 * well after it (4 s), a request on a frozen database answers 503 with Retry-After once its
 * deadline has passed, and the connector serves again by itself after the thaw.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { FROZEN_POOL_TIMEOUTS, startDatabaseProxy, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createApp } from "../app.ts";
import { BODY_LIMIT_BYTES } from "../config.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { seedConnector } from "../db/seed.ts";
import { TEST_CHAIN_ID, TEST_TOKEN } from "../test-support/harness.ts";
import { captureLog } from "../test-support/log-capture.ts";

const DEADLINE_MS = 700;
const name = throwawayDatabaseName("webshop_deadline");
let proxy: DatabaseProxy;
let database: ConnectorDatabase;
let server: Server;
let url: string;

beforeAll(async () => {
  await createMigratedDatabase("connector", name);
  const seedDb = openConnectorDatabase(TEST_DATABASE_URL, name);
  await seedConnector(seedDb.db, { chainId: TEST_CHAIN_ID, integrationToken: TEST_TOKEN, now: new Date() });
  await seedDb.close();
  proxy = await startDatabaseProxy();
  database = openConnectorDatabase(proxy.url, name, { connectionLimit: 2, timeouts: FROZEN_POOL_TIMEOUTS });
  const app = createApp({ db: database.db, config: { bodyLimitBytes: BODY_LIMIT_BYTES, requestDeadlineMs: DEADLINE_MS }, logger: captureLog("fatal").logger });
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await database.close();
  await proxy.close();
  await dropDatabase(name);
});

/** An update (its body parsed before the database is asked), timed. */
async function update() {
  const started = performance.now();
  const res = await fetch(`${url}/rest/V1/service/customer/update`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ user_info: { id: 1, user_id: 1, username: "deadline@example.com", first_name: "Dee" }, create_if_not_exists: true }),
  });
  await res.text();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), ms: performance.now() - started };
}

describe("a frozen database", () => {
  it("answers 503 with Retry-After at the request's deadline, not at the pool's own timeouts", async () => {
    expect((await update()).status).toBe(200);
    proxy.freeze();
    try {
      for (const answer of [await update(), ...(await Promise.all([update(), update(), update()]))]) {
        expect(answer).toMatchObject({ status: 503, retryAfter: "5" });
        expect(answer.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
        expect(answer.ms).toBeLessThan(DEADLINE_MS + 1500);
      }
    } finally {
      proxy.thaw();
    }
    // Connections opened while frozen stay dead until their connect timeout (4 s) ends them;
    // then the connector serves again by itself.
    const until = performance.now() + 20_000;
    while ((await update()).status !== 200 && performance.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect((await update()).status).toBe(200);
  }, 40_000);
});
