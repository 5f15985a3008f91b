/**
 * The connector on a frozen or unreachable database: every endpoint answers 503 with Retry-After
 * within the timeouts, each failure logged once without a stack trace, and the connector recovers
 * when the database comes back.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { downDatabaseUrl, startDatabaseProxy, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createApp } from "../app.ts";
import { BODY_LIMIT_BYTES } from "../config.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { seedConnector } from "../db/seed.ts";
import { TEST_CHAIN_ID, TEST_TOKEN } from "../test-support/harness.ts";
import { captureLog } from "../test-support/log-capture.ts";

const TIMEOUT_MS = 300;
const TIMEOUTS = { queryTimeoutMs: TIMEOUT_MS, acquireTimeoutMs: TIMEOUT_MS, connectTimeoutMs: TIMEOUT_MS };
const name = throwawayDatabaseName("webshop_frozen");
let proxy: DatabaseProxy;
const opened: ConnectorDatabase[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  await createMigratedDatabase("connector", name);
  const seedDb = openConnectorDatabase(TEST_DATABASE_URL, name);
  await seedConnector(seedDb.db, { chainId: TEST_CHAIN_ID, integrationToken: TEST_TOKEN, now: new Date() });
  await seedDb.close();
  proxy = await startDatabaseProxy();
});
afterAll(async () => {
  for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
  for (const d of opened) await d.close();
  await proxy?.close();
  await dropDatabase(name);
});

/** The connector on `databaseUrl`, listening on an ephemeral port, with a recording log. */
async function serve(databaseUrl: string) {
  const database = openConnectorDatabase(databaseUrl, name, { connectionLimit: 2, timeouts: TIMEOUTS });
  opened.push(database);
  // request lines (info) and warnings are not what this test counts
  const log = captureLog("error");
  const app = createApp({ db: database.db, config: { bodyLimitBytes: BODY_LIMIT_BYTES }, logger: log.logger });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const authenticate = async () => {
    const started = performance.now();
    const res = await fetch(`${url}/rest/V1/service/customer/authenticate`, {
      method: "POST",
      headers: { authorization: `Bearer ${TEST_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "nobody@example.com", password: "secret" }),
    });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json(), ms: performance.now() - started };
  };
  const get = async (path: string) => {
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${TEST_TOKEN}` } });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
  };
  return { lines: log.lines, authenticate, get };
}

function expectUnavailable(answer: { status: number; retryAfter: string | null; body: unknown }) {
  expect([answer.status, answer.retryAfter, answer.body]).toEqual([503, "5", { message: "The service is temporarily unavailable; try again later." }]);
}

describe("the connector and its database", () => {
  it("frozen: 503 with Retry-After within the timeouts, one log line each; recovers after the thaw", async () => {
    const connector = await serve(proxy.url);
    expect((await connector.authenticate()).status).toBe(200);
    proxy.freeze();
    const answers = [await connector.authenticate(), await connector.authenticate(), await connector.authenticate()];
    for (const answer of answers) {
      expectUnavailable(answer);
      expect(answer.ms).toBeLessThan(3 * TIMEOUT_MS + 1500);
    }
    expect(connector.lines).toHaveLength(answers.length);
    for (const line of connector.lines) {
      expect(line.message).toBe("database unavailable");
      expect(Object.keys(line.fields).sort()).toEqual(["code", "method", "path", "reason"]);
    }
    proxy.thaw();
    expect((await connector.authenticate()).status).toBe(200);
  });

  it("down: 503 with Retry-After at once", async () => {
    const connector = await serve(await downDatabaseUrl());
    expectUnavailable(await connector.authenticate());
    expect(connector.lines.map((l) => [l.message, l.fields.code])).toEqual([["database unavailable", "ECONNREFUSED"]]);
  });

  it("logs the path of a failed read by email without the email", async () => {
    const connector = await serve(await downDatabaseUrl());
    expectUnavailable(await connector.get(`/rest/V1/service/customer/user_info_by_email/${TEST_CHAIN_ID}/ann.unavailable@example.com`));
    expect(connector.lines.map((l) => [l.message, l.fields.method, l.fields.path])).toEqual([
      ["database unavailable", "GET", "/rest/V1/service/customer/user_info_by_email/[redacted]"],
    ]);
    expect(connector.lines[0]!.text).not.toMatch(/ann\.unavailable/);
  });
});
