/**
 * A frozen or unreachable database: requests answer 503 service_unavailable with Retry-After within
 * the timeouts, each logged once without a stack trace, and the service recovers when the database
 * comes back.
 */
import { isDatabaseUnavailable } from "@service/shared/node";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCoreBehindProxy, type CoreBehindProxy } from "../../../test/helpers/core-behind-proxy.ts";
import { downDatabaseUrl, type DatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { openCoreDatabase, type CoreDatabase } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { driverFailure } from "./database-unavailable.ts";

const TIMEOUT_MS = 300;
const TIMEOUTS = { queryTimeoutMs: TIMEOUT_MS, acquireTimeoutMs: TIMEOUT_MS, connectTimeoutMs: TIMEOUT_MS };

/** A logger that keeps what it is given. */
function recordingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const logger: Logger = {
    error: (fields, message) => lines.push({ level: "error", fields: fields as Record<string, unknown>, message }),
    warn: (fields, message) => lines.push({ level: "warn", fields: fields as Record<string, unknown>, message }),
    // the request lines (one per request, at info) are not failure lines
    info: () => undefined,
  };
  return { lines, logger };
}

const log = recordingLogger();
let world: CoreBehindProxy;
let dbName: string;
let proxy: DatabaseProxy;
let served: CoreDatabase;
let chainId: number;
let app: CoreBehindProxy["app"];
let headers: Record<string, string>;

beforeAll(async () => {
  world = await startCoreBehindProxy({ prefix: "core_frozen", name: "frozen", logger: log.logger, timeouts: TIMEOUTS });
  ({ dbName, proxy, served, chainId, app, headers } = world);
});
afterAll(() => world?.close());

const read = () => app.request(`/internal/get-businesses?chain_id=${chainId}`, { headers });
const write = (name: string) =>
  app.request("/internal/add-business", {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ chain_id: chainId, name }),
  });

/** Status, Retry-After, body and time taken of a request. */
async function timed(run: () => Response | Promise<Response>) {
  const started = performance.now();
  const res = await run();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any, ms: performance.now() - started };
}

function expectUnavailable(answer: Awaited<ReturnType<typeof timed>>) {
  expect(answer.status).toBe(503);
  expect(answer.retryAfter).toBe("5");
  expect(answer.body).toEqual({
    result: { code: 904, status: "error" },
    error: { code: 904, name: "service_unavailable", description: "The service is temporarily unavailable; try again later." },
  });
}

describe("a frozen database", () => {
  it("reads and writes answer 503 with Retry-After within the timeouts, one log line each, and recover after the thaw", async () => {
    expect((await read()).status).toBe(200); // the pool holds open connections now
    proxy.freeze();
    log.lines.length = 0;

    // Open connections: the statement times out. Then new connections: the handshake times out.
    const answers = [await timed(read), await timed(() => write("Frozen write")), await timed(read)];
    for (const answer of answers) {
      expectUnavailable(answer);
      // one timeout, or an acquisition and a connect timeout at most, plus slack for a busy machine
      expect(answer.ms).toBeLessThan(3 * TIMEOUT_MS + 1500);
    }
    // Parallel requests beyond the pool size wait for a connection at most the acquisition timeout.
    const parallel = await Promise.all(Array.from({ length: 5 }, () => timed(read)));
    for (const answer of parallel) expectUnavailable(answer);

    expect(log.lines).toHaveLength(answers.length + parallel.length);
    for (const line of log.lines) {
      expect(line).toMatchObject({ level: "error", message: "database unavailable" });
      expect(Object.keys(line.fields).sort()).toEqual(["code", "method", "path", "reason"]);
      expect(JSON.stringify(line.fields)).not.toMatch(/\n\s+at /); // no stack trace
    }

    proxy.thaw();
    expect((await read()).status).toBe(200);
    expect((await write("After the thaw")).status).toBe(200);
  });
});

describe("a transaction on a database that freezes under it", () => {
  it("fails within the timeout (its rollback does not wait behind the lost statement) and its connection is not reused", async () => {
    const started = performance.now();
    const failure = await served.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        proxy.freeze();
        await tx.execute(sql`SELECT 2`);
      })
      .then(() => null, (err: unknown) => err);
    proxy.thaw();
    expect(isDatabaseUnavailable(failure)).toBe(true);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS + 1500);
    // The pool's connections still answer: the dead one was destroyed, not handed back.
    for (let i = 0; i < 3; i++) expect((await read()).status).toBe(200);
  });
});

describe("a database that is down", () => {
  it("answers 503 with Retry-After at once, one log line per request", async () => {
    const down = openCoreDatabase(await downDatabaseUrl(), dbName, { timeouts: TIMEOUTS });
    const downLog = recordingLogger();
    const downApp = createApp({ db: down.db, config: loadCoreConfig({ CORE_DB_NAME: dbName }), logger: downLog.logger });
    try {
      const answers = [await timed(() => downApp.request(`/internal/get-businesses?chain_id=${chainId}`, { headers })), await timed(() =>
        downApp.request("/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username: "frozen@example.com", password: "pw-secret" }),
        }),
      )];
      for (const answer of answers) expectUnavailable(answer);
      expect(downLog.lines.map((l) => [l.message, l.fields.code])).toEqual([
        ["database unavailable", "ECONNREFUSED"],
        ["database unavailable", "ECONNREFUSED"],
      ]);
    } finally {
      await down.close();
    }
  });
});

describe("driverFailure", () => {
  it("reads the driver's code and message under drizzle's wrapper, else the error's own, without the statement", () => {
    const driver = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:3306"), { code: "ECONNREFUSED" });
    const wrapped = new Error("Failed query: select * from users where password = ?\nparams: secret", { cause: driver });
    expect(driverFailure(wrapped)).toEqual({ code: "ECONNREFUSED", reason: "connect ECONNREFUSED 127.0.0.1:3306" });
    expect(driverFailure(driver)).toEqual({ code: "ECONNREFUSED", reason: "connect ECONNREFUSED 127.0.0.1:3306" });
    expect(driverFailure(Object.assign(new Error("lost"), { code: 42 }))).toEqual({ reason: "lost" });
    expect(driverFailure("down")).toEqual({ reason: "down" });
  });
});
