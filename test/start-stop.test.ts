/**
 * `npm start` as a process manager runs it (shutdown and start-up), with real processes on
 * throwaway databases and free ports:
 * - SIGTERM to npm's own process lets a request in flight finish, closes both ports and exits 0
 *   within 10 s;
 * - every bad variable is one line, nothing starts; a port in use is one line; an unreachable
 *   database is waited for (DATABASE_WAIT_SECONDS) and then one line.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { get } from "node:http";
import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { SECRET_KEY_MISSING } from "@service/shared/node";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { accepts, closedPort, runScript, scriptEnv, start } from "./helpers/processes.ts";

const dbNames: string[] = [];
afterAll(() => Promise.all(dbNames.map(dropDatabase)));

/** Variables for a start on fresh throwaway databases and free ports. */
function startEnv(extra: Record<string, string> = {}): Record<string, string> {
  const core = throwawayDatabaseName("start_core");
  const shop = throwawayDatabaseName("start_shop");
  dbNames.push(core, shop);
  return scriptEnv({
    DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: core, WEBSHOP_DB_NAME: shop,
    CORE_API_PORT: "0", CONNECTOR_PORT: "0", SERVICE_SECRET_KEY: "test-secret-key-of-at-least-32-characters", ...extra,
  });
}

const noStack = (text: string) => !/^\s+at /m.test(text);

describe("SIGTERM to npm start", () => {
  it("finishes the request in flight, closes both ports and exits 0 within 10 s", async () => {
    const password = "start-stop-admin-password";
    const npm = start("npm", ["start"], startEnv({ SEED_ADMIN_PASSWORD: password }));
    try {
      const core = (await npm.waitFor(/core-api\s+(http:\/\/\S+)/, 90_000))[1]!;
      const connector = (await npm.waitFor(/connector\s+(http:\/\/\S+)/))[1]!;
      expect(npm.output()).not.toContain(password); // from SEED_ADMIN_PASSWORD: never printed
      expect(npm.output()).toContain("admin password     from SEED_ADMIN_PASSWORD (not shown)");

      // Failed logins are slowed (auth/throttle.ts): the third is held about a second, long
      // enough to be in flight when the signal comes.
      const login = () => fetch(`${core}/auth/login`, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin@demo.example", password: "wrong-password" }),
      });
      expect((await login()).status).toBe(401);
      expect((await login()).status).toBe(401);
      const inFlight = login();
      await new Promise((r) => setTimeout(r, 250));
      const signalled = Date.now();
      npm.child.kill("SIGTERM");

      expect((await inFlight).status).toBe(401);
      const { code, at } = await npm.exited();
      expect(code).toBe(0);
      expect(at - signalled).toBeLessThan(10_000);
      expect(at - signalled).toBeGreaterThan(300); // it did wait for the held login
      expect(npm.output()).toContain("SIGTERM: stopping");
      expect(await accepts(core)).toBe(false);
      expect(await accepts(connector)).toBe(false);
    } finally {
      npm.child.kill("SIGKILL");
    }
  }, 120_000);
});

/** GET `url` on a connection of its own (the cluster's primary hands each new connection to the next worker). */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });
}

describe("WEB_CONCURRENCY", () => {
  it("2: two worker processes serve each service, migrated and seeded once; SIGTERM stops them all and exits 0", async () => {
    const npm = start("npm", ["start"], startEnv({ WEB_CONCURRENCY: "2", LOG_LEVEL: "info" }));
    try {
      const core = (await npm.waitFor(/core-api\s+(http:\/\/\S+)/, 90_000))[1]!;
      const connector = (await npm.waitFor(/connector\s+(http:\/\/\S+)/))[1]!;
      for (let i = 0; i < 6; i++) {
        expect(await getOnNewConnection(`${core}/health`)).toBe(200);
        expect(await getOnNewConnection(`${connector}/health`)).toBe(200);
      }
      // every request line carries the pid of the process that answered it
      await new Promise((r) => setTimeout(r, 200));
      const answeredBy = (service: string) => new Set(
        npm.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { name?: string; msg?: string; pid?: number })
          .filter((l) => l.name === service && l.msg === "request").map((l) => l.pid),
      );
      expect(answeredBy("core-api").size).toBe(2);
      expect(answeredBy("connector").size).toBe(2);
      expect([...answeredBy("core-api")].sort()).toEqual([...answeredBy("connector")].sort()); // a worker serves both
      expect(npm.output().match(/demo chain \d+ seeded/g)).toHaveLength(1); // the primary seeded, once
      // the reconcile schedule runs in one worker (slot 0), not in each
      const schedules = npm.output().split("\n").filter((l) => l.includes("reconcile schedule started"));
      expect(schedules).toHaveLength(1);

      npm.child.kill("SIGTERM");
      const { code } = await npm.exited();
      expect(code).toBe(0);
      expect(npm.output()).toContain("stopped");
      expect(await accepts(core)).toBe(false);
      expect(await accepts(connector)).toBe(false);
    } finally {
      npm.child.kill("SIGKILL");
    }
  }, 120_000);
});

describe("start-up", () => {
  it("reports every bad variable of both services, one line each without a stack, and starts nothing", async () => {
    const env = startEnv({
      CORE_API_PORT: "http", CONNECTOR_PORT: "-1", DATABASE_URL: "postgres://db:5432", TRUSTED_PROXIES: "10.0.0/8",
      SEED_ADMIN_PASSWORD: "short", METRICS_TOKEN: "tiny", WEB_CONCURRENCY: "0",
    });
    const result = await runScript("scripts/start.ts", [], env);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n").sort()).toEqual([
      "CONNECTOR_PORT: must be a port number (0-65535)",
      "CORE_API_PORT: must be a port number",
      "DATABASE_URL: must be a mysql:// URL, for example mysql://root@127.0.0.1:3306",
      "METRICS_TOKEN: must be at least 16 characters (or unset: /metrics open on the service port)",
      "SEED_ADMIN_PASSWORD: must be at least 8 characters",
      "TRUSTED_PROXIES: must be a comma-separated list of CIDR ranges or addresses",
      "WEB_CONCURRENCY: must be a number of processes (1-256)",
    ]);
    expect(result.stdout).toBe("");
    expect(result.stderr).not.toContain("short"); // values are never echoed
  }, 60_000);

  it.each(["core-api/src/main.node.ts", "connector/src/main.ts"])("%s on its own refuses to start without SERVICE_SECRET_KEY, in one line", async (entry) => {
    const { SERVICE_SECRET_KEY: _key, ...env } = startEnv();
    // No key file either: the `.secret-key` that `npm start` leaves in the checkout would be read.
    const result = await runScript(entry, [], { ...env, SERVICE_SECRET_KEY_FILE: join(tmpdir(), `no-key-${process.pid}`) });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(SECRET_KEY_MISSING);
    expect(result.stdout).toBe("");
  }, 60_000);

  it("reports a port in use as one line and exits 1, from one process and from worker processes", async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      // One database for both runs: the second finds it migrated.
      const env = startEnv({ CORE_API_PORT: String(port) });
      for (const workers of ["1", "2"]) {
        const result = await runScript("scripts/start.ts", ["--service", "core-api"], { ...env, WEB_CONCURRENCY: workers });
        expect(result.code, workers).toBe(1);
        expect(result.stderr.trim(), workers).toBe(`core-api cannot listen on 127.0.0.1:${port}: the port is in use (CORE_API_PORT)`);
      }
    } finally {
      blocker.close();
    }
  }, 90_000);

  it("reports a HOST that is no address as one line naming HOST (not the port), without a stack, and exits 1 before any database work", async () => {
    // The database cannot be reached and would be waited for 30 s: the HOST is refused first.
    const port = await closedPort();
    for (const [service, line] of [
      ["all", "core-api cannot listen on 999.1.1.1:0: HOST is no IP address or host name that resolves (HOST)"],
      ["connector", "connector cannot listen on 999.1.1.1:0: HOST is no IP address or host name that resolves (HOST)"],
    ]) {
      const env = startEnv({ HOST: "999.1.1.1", DATABASE_URL: `mysql://root@127.0.0.1:${port}`, DATABASE_WAIT_SECONDS: "30" });
      const result = await runScript("scripts/start.ts", ["--service", service!], env);
      expect(result.code, service).toBe(1);
      expect(result.stderr.trim(), service).toBe(line);
      expect(result.stdout, service).not.toContain("waiting for the database");
      expect(noStack(result.stderr)).toBe(true);
    }
  }, 60_000);

  it("waits for an unreachable database with back-off, then reports it in one line", async () => {
    const port = await closedPort();
    const result = await runScript("scripts/start.ts", [], startEnv({ DATABASE_URL: `mysql://root:pw@127.0.0.1:${port}`, DATABASE_WAIT_SECONDS: "2" }));
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`waiting for the database at mysql://root:***@127.0.0.1:${port} (ECONNREFUSED), up to 2 s`);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^cannot reach the database at mysql://root:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\) after [12] s, [3-6] attempts \\(DATABASE_WAIT_SECONDS`));
    expect(result.ms).toBeGreaterThanOrEqual(1_500);
    expect(noStack(result.stderr)).toBe(true);
  }, 60_000);
});
