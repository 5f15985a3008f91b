/**
 * Every entry point finds SERVICE_SECRET_KEY the same way (the environment, else the secret-key
 * file npm start and npm run migrate keep: shared/src/node/secret-key-file.ts), and the Deno entry
 * behaves as a service: a port in use is one line and a non-zero exit; SIGTERM or SIGINT, also
 * sent to `npx deno run ...`, closes the server and ends the process. Real processes on throwaway
 * databases; the key file is a temporary one named by SERVICE_SECRET_KEY_FILE, so the
 * checkout's own `.secret-key` is never touched.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_KEY_MISSING } from "@service/shared/node";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { accepts, ROOT, runScript, scriptEnv, start, type Running } from "./helpers/processes.ts";

const coreDb = throwawayDatabaseName("entry_core");
const shopDb = throwawayDatabaseName("entry_shop");
const dir = mkdtempSync(join(tmpdir(), "secret-key-"));
const keyFile = join(dir, "secret-key");
/** Variables without SERVICE_SECRET_KEY: the key comes from the file. */
const env = scriptEnv({
  DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: coreDb, WEBSHOP_DB_NAME: shopDb, CORE_API_PORT: "0", CONNECTOR_PORT: "0",
  SERVICE_SECRET_KEY_FILE: keyFile, LOG_LEVEL: "warn", SYNC_CRON: "off",
});
const noKey = { ...env, SERVICE_SECRET_KEY_FILE: join(dir, "missing") };
const DENO_ARGS = ["run", "--allow-net", "--allow-env", "--allow-read", "--allow-sys", "core-api/src/main.deno.ts"];
const noStack = (text: string) => !/^\s+at /m.test(text);

beforeAll(async () => {
  await createMigratedDatabase("core", coreDb);
  await createMigratedDatabase("connector", shopDb);
  writeFileSync(keyFile, "entry-points-secret-key-of-at-least-32-characters\n", { mode: 0o600 });
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropDatabase(coreDb);
  await dropDatabase(shopDb);
});

/** Stops `proc` if it still runs (a failed test must not leave a server behind). */
function ensureStopped(proc: Running): void {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGKILL");
}

describe("the secret-key file", () => {
  it("npm run sync reads it when SERVICE_SECRET_KEY is not set; without either it says what is missing", async () => {
    const withFile = await runScript("scripts/sync.ts", ["--dry-run"], env);
    expect(withFile.stderr).not.toContain("SERVICE_SECRET_KEY");
    expect(withFile.code, withFile.stderr).toBe(0);
    const without = await runScript("scripts/sync.ts", ["--dry-run"], noKey);
    expect([without.code, without.stderr.trim()]).toEqual([2, SECRET_KEY_MISSING]);
  }, 60_000);

  it("the core API on Node and the connector read it", async () => {
    for (const script of ["core-api/src/main.node.ts", "connector/src/main.ts"]) {
      const proc = start(`${ROOT}node_modules/.bin/tsx`, [script], env);
      try {
        await proc.waitFor(/listening on http:\/\/\S+/, 60_000);
        expect(proc.output(), script).not.toContain("SERVICE_SECRET_KEY");
      } finally {
        proc.child.kill("SIGTERM");
        await proc.exited();
      }
    }
  }, 120_000);
});

describe("the Deno entry", () => {
  it("reads the secret-key file, and SIGTERM to `npx deno run` closes the server and ends it", async () => {
    const deno = start("npx", ["deno", ...DENO_ARGS], env);
    try {
      const url = (await deno.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1]!;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      deno.child.kill("SIGTERM");
      const { code } = await deno.exited();
      expect(code === 0 || deno.child.signalCode === "SIGTERM").toBe(true);
      // the server went with it (not left behind by npx)
      await expect.poll(() => accepts(url), { timeout: 10_000 }).toBe(false);
    } finally {
      ensureStopped(deno);
    }
  }, 90_000);

  it("SIGINT to deno itself closes the server and exits 0", async () => {
    const deno = start(`${ROOT}node_modules/.bin/deno`, DENO_ARGS, env);
    try {
      const url = (await deno.waitFor(/listening on (http:\/\/\S+)/, 60_000))[1]!;
      deno.child.kill("SIGINT");
      const ex = await deno.exited();
      expect([ex.code, deno.child.signalCode]).toEqual([0, null]);
      expect(await accepts(url)).toBe(false);
    } finally {
      ensureStopped(deno);
    }
  }, 90_000);

  it("checks its configuration as the Node entries do: one line per bad variable, exit 2; no key, exit 2", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ ...env, CORE_API_PORT: "not-a-port" }, "CORE_API_PORT: must be a port number"],
      [noKey, SECRET_KEY_MISSING],
    ];
    for (const [variables, line] of cases) {
      const deno = start(`${ROOT}node_modules/.bin/deno`, DENO_ARGS, variables);
      try {
        const { code } = await deno.exited();
        expect([code, deno.output().trim()]).toEqual([2, line]);
      } finally {
        ensureStopped(deno);
      }
    }
  }, 90_000);

  it("a port in use is one line naming it, no stack, and a non-zero exit", async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", () => resolve()));
    const port = (taken.address() as { port: number }).port;
    const deno = start(`${ROOT}node_modules/.bin/deno`, DENO_ARGS, { ...env, HOST: "127.0.0.1", CORE_API_PORT: String(port) });
    try {
      const { code } = await deno.exited();
      expect(code).not.toBe(0);
      const lines = deno.output().trim().split("\n");
      expect(lines, deno.output()).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^core-api cannot listen on 127\\.0\\.0\\.1:${port}: .*in use.*\\(CORE_API_PORT\\)$`));
      expect(noStack(deno.output())).toBe(true);
    } finally {
      ensureStopped(deno);
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  }, 90_000);
});
