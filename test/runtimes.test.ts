/**
 * The core API passes the same smoke requests on Node and on Deno, each against its own throwaway
 * database, over real HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { createAdmin, createChain, grantAccess } from "../core-api/src/db/seed.ts";
import { startCoreApi } from "../core-api/src/main.node.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { TEST_SECRET_KEY } from "./helpers/core.ts";
import { runCoreSmoke } from "./helpers/smoke.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const admin = { username: "smoke@example.com", password: "smoke-password" };

/** A migrated throwaway database with a chain and a super-user admin. */
async function prepareDatabase(): Promise<{ dbName: string; chainId: number }> {
  const dbName = throwawayDatabaseName("runtime");
  await createMigratedDatabase("core", dbName);
  const database = openCoreDatabase(TEST_DATABASE_URL, dbName);
  try {
    const chainId = await createChain(database.db, "Runtime Chain");
    const id = await createAdmin(database.db, admin);
    await grantAccess(database.db, id, chainId, { super_user: true });
    return { dbName, chainId };
  } finally {
    await database.close();
  }
}

describe("core-api on Node", () => {
  let dbName = "";
  afterAll(() => dropDatabase(dbName));
  it("passes the smoke requests", async () => {
    const prepared = await prepareDatabase();
    dbName = prepared.dbName;
    const service = await startCoreApi(loadCoreConfig({ DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: dbName, CORE_API_PORT: "0", LOG_LEVEL: "warn" }));
    try {
      await runCoreSmoke(service.url, admin, prepared.chainId);
      // the Node layer adds the default Node metrics to the app's own series
      const metrics = await (await fetch(`${service.url}/metrics`)).text();
      expect(metrics).toMatch(/^http_requests_total\{/m);
      expect(metrics).toMatch(/^nodejs_version_info\{/m);
      expect(metrics).toMatch(/^process_cpu_user_seconds_total /m);
    } finally {
      await service.close();
    }
  });
});

/** Starts core-api/src/main.deno.ts on database `dbName`; resolves once it listens, with its URL. */
async function startDeno(dbName: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(
    `${ROOT}node_modules/.bin/deno`,
    ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "core-api/src/main.deno.ts"],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: dbName, CORE_API_PORT: "0", NO_COLOR: "1", SERVICE_SECRET_KEY: TEST_SECRET_KEY },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`deno did not start:\n${output}`)), 50_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`deno exited with ${code}:\n${output}`)));
  }).catch((error: unknown) => {
    if (child.exitCode === null) child.kill("SIGKILL");
    throw error;
  });
  return { child, baseUrl };
}

describe("core-api on Deno", () => {
  let dbName = "";
  let child: ChildProcess | undefined;
  let baseUrl = "";
  let chainId = 0;

  // One server for the requests; the SIGTERM test stops a second one of its own, so this one
  // serves every test whichever runs first.
  beforeAll(async () => {
    const prepared = await prepareDatabase();
    dbName = prepared.dbName;
    chainId = prepared.chainId;
    ({ child, baseUrl } = await startDeno(dbName));
  }, 60_000);

  afterAll(async () => {
    if (child?.exitCode === null) child.kill("SIGKILL");
    await dropDatabase(dbName);
  });

  it("passes the same smoke requests", async () => {
    await runCoreSmoke(baseUrl, admin, chainId);
  });

  it("serves its own registry on /metrics: the app's series, no Node metrics", async () => {
    // a request of its own first, so the request counter has a series whatever ran before
    expect((await fetch(`${baseUrl}/health`)).status).toBe(200);
    const response = await fetch(`${baseUrl}/metrics`);
    expect(response.status).toBe(200);
    const metrics = await response.text();
    expect(metrics).toMatch(/^http_requests_total\{/m);
    expect(metrics).toMatch(/^db_pool_connections\{/m);
    expect(metrics).not.toMatch(/^(nodejs|process)_/m);
  });

  it("stops on SIGTERM with exit status 0, its port closed", async () => {
    const own = await startDeno(dbName);
    try {
      // served a request first, as the shared one has: it stops with a database connection and the
      // client's kept-alive connection open
      expect((await fetch(`${own.baseUrl}/ready`)).status).toBe(200);
      const exited = new Promise<number | null>((resolve) => own.child.once("exit", (code) => resolve(code)));
      own.child.kill("SIGTERM");
      expect(await exited).toBe(0);
      await expect(fetch(`${own.baseUrl}/docs`)).rejects.toThrow();
    } finally {
      if (own.child.exitCode === null) own.child.kill("SIGKILL");
    }
  }, 60_000);
});
