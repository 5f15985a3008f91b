/**
 * `--help` on every operator script prints its usage and exits 0 without acting. Each runs against
 * a database and services that do not exist, with no time to wait for them: a script that tried to
 * act would fail with status 1 instead.
 */
import { describe, expect, it } from "vitest";
import { closedPort, runScript, scriptEnv } from "./helpers/processes.ts";

const SCRIPTS = [
  { script: "scripts/start.ts", usage: "Usage: npm start" },
  { script: "scripts/migrate.ts", usage: "Usage: npm run migrate" },
  { script: "scripts/demo.ts", usage: "Usage: npm run demo" },
  { script: "bench/run.ts", usage: "Usage: npm run bench" },
  { script: "scripts/admin.ts", usage: "Usage: npm run admin" },
  { script: "scripts/sync.ts", usage: "Usage: npm run sync" },
  { script: "scripts/cluster.ts", usage: "Usage: npm run cluster" },
] as const;

describe("--help", () => {
  it("lists every operator script", () => {
    expect(SCRIPTS).toHaveLength(7);
  });

  for (const { script, usage } of SCRIPTS) {
    it(`${script} prints its usage and touches nothing`, async () => {
      const port = await closedPort();
      const env = scriptEnv({
        DATABASE_URL: `mysql://root@127.0.0.1:${port}`, DATABASE_WAIT_SECONDS: "0",
        CORE_API_URL: `http://127.0.0.1:${port}`, CONNECTOR_URL: `http://127.0.0.1:${port}`,
        SEED_ADMIN_USERNAME: "a", SEED_ADMIN_PASSWORD: "b", SEED_INTEGRATION_TOKEN: "c",
        SERVICE_SECRET_KEY: "help-test-secret-key-of-32-characters",
      });
      const result = await runScript(script, ["--help"], env);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout.startsWith(usage)).toBe(true);
      expect(result.stdout).toMatch(/-h, --help/);
    }, 60_000);
  }

  // Every script asks the one command-line reader (scripts/lib/command-line.ts) whether help is
  // wanted: -h is read there (command-line.test.ts), and end to end here on one script.
  it("-h is --help", async () => {
    const result = await runScript("scripts/migrate.ts", ["-h"], scriptEnv({ DATABASE_URL: `mysql://root@127.0.0.1:${await closedPort()}`, DATABASE_WAIT_SECONDS: "0" }));
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith("Usage: npm run migrate")).toBe(true);
  }, 30_000);

  it("without it, a bad command line is one line and status 2", async () => {
    const result = await runScript("scripts/start.ts", ["--bogus"], scriptEnv({}));
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe("Unknown option '--bogus' (see --help)");
  }, 30_000);
});
