/**
 * The connector's authenticate on the Galera cluster, through two nodes at once: the counters a
 * login writes (per address, per customer and address) are single statements, a success settles
 * both in one multi-table UPDATE (customers/customer-throttle.ts customerAttemptSucceeded), and
 * whatever certification conflicts the nodes meet on those rows are retried: no answer is a 500,
 * and afterwards every node holds the same settled counters: nothing pending, the pair reset.
 */
import { createHash } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../connector/src/app.ts";
import { BODY_LIMIT_BYTES } from "../../connector/src/config.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../../connector/src/db/client.ts";
import { startHarness, TEST_TOKEN, type Harness } from "../../connector/src/test-support/harness.ts";
import { NODE_URLS, queryNode } from "./cluster-helpers.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
let h: Harness;
let second: { database: ConnectorDatabase; server: Server; url: string };

beforeAll(async () => {
  // The harness's app and database are on node 1; a second app on the same database through node 2.
  h = await startHarness("clauth", { trustedProxies: ["127.0.0.1"] });
  const database = openConnectorDatabase(NODE_URLS[1]!, await databaseName());
  const app = createApp({ db: database.db, clock: h.now, config: { bodyLimitBytes: BODY_LIMIT_BYTES, logLevel: "warn", trustedProxies: ["127.0.0.1"] } });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  second = { database, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});
afterAll(async () => {
  if (second) {
    await new Promise<void>((resolve) => second.server.close(() => resolve()));
    await second.database.close();
  }
  await h?.close();
});

/** An authenticate through node `i % 2` from client address `from`. */
async function authenticate(i: number, from: string, email: string, password: string) {
  const res = await fetch(`${i % 2 === 0 ? h.url : second.url}${AUTH}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TEST_TOKEN}`, "x-forwarded-for": from },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The harness's throwaway database. */
async function databaseName(): Promise<string> {
  const [rows] = await h.database.pool.query("SELECT DATABASE() AS db");
  return (rows as Array<{ db: string }>)[0]!.db;
}

const hashOf = (from: string) => createHash("sha256").update(`address:${from}`).digest("hex");

describe("authenticate through two nodes at once", () => {
  it("8 logins of one customer from one address: all authenticated, and every node holds the settled counters", async () => {
    const created = await h.call("POST", "/rest/V1/service/customer/update", { user_info: { username: "both@example.com", password: "Right-pass1" }, create_if_not_exists: true });
    expect(created.status).toBe(200);
    const from = "198.51.100.7";
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => authenticate(i, from, "both@example.com", "Right-pass1")));
      expect(answers.filter((a) => a.status !== 200 || a.body.authenticated !== true).map((a) => [a.status, a.body])).toEqual([]);
    }
    const dbName = await databaseName();
    for (const url of NODE_URLS) {
      const counters = await queryNode(url, dbName, "SELECT failures, pending FROM service_authenticate_throttle WHERE address_hash = ?", [hashOf(from)]);
      expect(counters, url).toEqual([{ failures: 0, pending: 0 }]);
      const pairs = await queryNode<{ failures: number; locked_until: Date | null }>(url, dbName, "SELECT failures, locked_until FROM service_authenticate_lockout WHERE customer_id = ? AND address_hash = ?", [created.body.id, hashOf(from)]);
      // reset by the last success, or already pruned
      expect(pairs.filter((p) => p.failures !== 0 || p.locked_until !== null), url).toEqual([]);
    }
  });
});
