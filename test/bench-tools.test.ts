/**
 * The parts of `npm run bench` whose mistakes would not show in its figures: the anchor answers
 * the same searches with the same pages as the full scan (so "identical" can fail), captured
 * statements replay as the product sent them, the steady-state rate counts what it should, and
 * a run with --only keeps the other sections' results.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { createChain } from "../core-api/src/db/seed.ts";
import { sql } from "drizzle-orm";
import { ANCHOR_TABLE, ensureAnchor, fulltextQuery, runAnchor } from "../bench/anchor.ts";
import { runBaseline } from "../bench/baseline.ts";
import { benchCases } from "../bench/cases.ts";
import { steadyRate } from "../bench/load-drivers.ts";
import { loadStores } from "../bench/load.ts";
import { comparePages } from "../bench/measure.ts";
import { mergeBlocks, parseBlocks } from "../bench/results-file.ts";
import { MemorySampler, processTrees, RESCAN_EVERY } from "../bench/process-memory.ts";
import { cpuSeconds, databaseServerPid, measureCpu, waitForQuiet } from "../bench/process-cpu.ts";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import mysql from "mysql2/promise";
import { captureStatements, isBusinessStatement, replay, waves, type CapturedStatement } from "../bench/sql-capture.ts";
import { benchClientAddress, benchCustomerEmail, ensureBenchCustomers } from "../bench/webshop-customers.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { seedConnector } from "../connector/src/db/seed.ts";
import type { BenchSettings } from "../bench/section.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { AMSTERDAM_CENTRAAL } from "../scripts/lib/towns.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { closedPort } from "./helpers/processes.ts";

const statement = (sentAt: number, doneAt: number, text = "select 1"): CapturedStatement => ({ command: "Query", sql: text, sentAt, doneAt });

describe("waves", () => {
  it("keeps statements sent one after the other apart and groups those sent before the earlier ones answered", () => {
    const a = statement(0, 5);
    const b = statement(6, 10);
    const c = statement(7, 12);
    const d = statement(12, 13);
    expect(waves([a, b, c, d])).toEqual([[a], [b, c], [d]]);
  });
});

describe("isBusinessStatement", () => {
  it("tells the search's statements from authentication and transaction control", () => {
    expect(isBusinessStatement(statement(0, 1, "select `id` from `businesses` where `id` = ?"))).toBe(true);
    expect(isBusinessStatement(statement(0, 1, "SELECT COALESCE(SUM(c.n), 0) FROM business_geo_cell_counts c"))).toBe(true);
    expect(isBusinessStatement(statement(0, 1, "insert into `business_search_tokens` (`chain_id`) values (?)"))).toBe(true);
    expect(isBusinessStatement(statement(0, 1, "select `sessions`.`id`, `apps`.`business_hours` from `sessions`"))).toBe(false);
    expect(isBusinessStatement(statement(0, 1, "begin"))).toBe(false);
  });
});

describe("steadyRate", () => {
  it("leaves out the ramp-up before every loop has answered once", () => {
    // 4 loops, 100 ms per operation: the first answers all at 100 ms, then 40 per second.
    const completions = Array.from({ length: 40 }, (_, i) => 100 * (Math.floor(i / 4) + 1));
    expect(steadyRate(completions, 4, 0, 1)).toBeCloseTo(40, 5);
    // completed / duration would say 40 / 1.05 s = 38: the ramp and the cut-off undercount.
  });

  it("falls back to answers per second when there are too few to see a steady state", () => {
    expect(steadyRate([900, 1500], 8, 0, 2)).toBe(1);
  });
});

describe("results file", () => {
  const block = (name: string, body: string) => ({ name, markdown: `## ${name}\n\n${body}` });

  it("replaces the sections of a run, keeps the others and orders them as registered", () => {
    const first = mergeBlocks("", [block("throughput", "old throughput"), block("latency", "old latency")], ["latency", "scaling", "throughput"]);
    expect(parseBlocks(first).map((b) => b.name)).toEqual(["latency", "throughput"]);
    const second = mergeBlocks(first, [block("latency", "new latency"), block("scaling", "new scaling")], ["latency", "scaling", "throughput"]);
    expect(parseBlocks(second)).toEqual([block("latency", "new latency"), block("scaling", "new scaling"), block("throughput", "old throughput")]);
    expect(second.match(/<!-- bench:latency -->/g)).toHaveLength(1);
  });

  it("starts afresh from a file without blocks", () => {
    const text = mergeBlocks("# Benchmark results\n\nhand-written text\n", [block("latency", "x")], ["latency"]);
    expect(text).not.toContain("hand-written");
    expect(parseBlocks(text)).toEqual([block("latency", "x")]);
  });
});

describe("measureCpu", () => {
  it("charges a busy child process to its tree, the waiting bench next to nothing, and the database server to itself", async () => {
    // A child that spins for 500 ms of CPU, says so, then waits to be killed: the whole spin falls
    // inside the measurement however busy the machine is.
    const child = spawn(process.execPath, ["-e", "const end = process.cpuUsage().user + 500000; while (process.cpuUsage().user < end) {} console.log('spun'); setTimeout(() => {}, 60000)"]);
    const spun = new Promise<void>((r) => child.stdout.once("data", () => r()));
    const { result, cpu } = await measureCpu(TEST_DATABASE_URL, new Map([["spinner", child.pid!]]), async () => {
      await spun;
      return "done";
    });
    child.kill();
    expect(result).toBe("done");
    expect(cpu.services.get("spinner")).toBeGreaterThan(0.4);
    // The spin ran on the child's main thread.
    expect(cpu.mainThreads.get("spinner")).toBeGreaterThan(0.4);
    expect(cpu.bench).toBeLessThan(0.2);
    // A database server on this machine (as CI runs it) has its CPU counted (which one: below).
    if (["127.0.0.1", "localhost"].includes(new URL(TEST_DATABASE_URL).hostname)) expect(cpu.database).not.toBeNull();
    expect(cpuSeconds(999_999_999)).toBeNull();
  });

  it("tells a process's main thread from its other threads", async () => {
    // The same 500 ms spin in a worker thread, the main thread waiting for it.
    const spin = "const end = process.cpuUsage().user + 500000; while (process.cpuUsage().user < end) {} require('node:worker_threads').parentPort.postMessage('spun')";
    const child = spawn(process.execPath, ["-e", `new (require("node:worker_threads").Worker)(${JSON.stringify(spin)}, { eval: true }).on("message", () => console.log("spun")); setTimeout(() => {}, 60000)`]);
    const spun = new Promise<void>((r) => child.stdout.once("data", () => r()));
    const { cpu } = await measureCpu(TEST_DATABASE_URL, new Map([["spinner", child.pid!]]), () => spun);
    child.kill();
    expect(cpu.services.get("spinner")).toBeGreaterThan(0.4);
    expect(cpu.mainThreads.get("spinner")).toBeLessThan(0.25);
  });
});

describe("waitForQuiet", () => {
  /**
   * A node process that says "started", spins for `cpuMs` of CPU (forever: null), says "spun" and
   * waits to be killed; `said` resolves when it has said `word`.
   */
  const spinner = (cpuMs: number | null) => {
    const child = spawn(process.execPath, ["-e", `console.log("started"); const end = process.cpuUsage().user + ${cpuMs === null ? "Infinity" : cpuMs * 1000}; while (process.cpuUsage().user < end) {} console.log("spun"); setTimeout(() => {}, 60000)`]);
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    const said = (word: string) => new Promise<void>((resolve) => {
      const check = () => (out.includes(word) ? resolve() : setTimeout(check, 10));
      check();
    });
    return { child, said, saidSoFar: () => out };
  };

  it("waits until a started process has done its work; gives up, saying so, on one that never stops", async () => {
    // no database server on this URL: only the processes count, whatever the shared server does meanwhile
    const nowhere = `mysql://root@127.0.0.1:${await closedPort()}`;
    const finishing = spinner(300);
    let endless: ReturnType<typeof spinner> | undefined;
    try {
      await finishing.said("started");
      const quiet = await waitForQuiet(nowhere, new Map([["finishing", finishing.child.pid!]]), { maxMs: 20_000 });
      expect(quiet).toMatchObject({ quiet: true, databaseCounted: false });
      // quiet only once the spin was over
      expect(finishing.saidSoFar()).toContain("spun");
      endless = spinner(null);
      await endless.said("started");
      const never = await waitForQuiet(nowhere, new Map([["endless", endless.child.pid!]]), { maxMs: 500 });
      expect(never.quiet).toBe(false);
      expect(never.waitedMs).toBeGreaterThanOrEqual(500);
    } finally {
      finishing.child.kill();
      endless?.child.kill();
    }
  });
});

describe("databaseServerPid", () => {
  it("is the database server listening on the URL's port of this machine; null for a port nothing serves or another machine", async () => {
    if (["127.0.0.1", "localhost"].includes(new URL(TEST_DATABASE_URL).hostname)) {
      const pid = databaseServerPid(TEST_DATABASE_URL);
      expect(pid).not.toBeNull();
      expect(cpuSeconds(pid!)).toBeGreaterThan(0);
      expect(["mariadbd", "mysqld"]).toContain(readFileSync(`/proc/${pid}/comm`, "utf8").trim());
      // the server that answers on that URL is that process
      const conn = await mysql.createConnection(TEST_DATABASE_URL);
      try {
        const [[row]] = (await conn.query("SELECT @@pid_file AS pidFile")) as unknown as [[{ pidFile: string }]];
        expect(Number(readFileSync(row.pidFile, "utf8").trim())).toBe(pid);
      } finally {
        await conn.end();
      }
    }
    expect(databaseServerPid(`mysql://root@127.0.0.1:${await closedPort()}`)).toBeNull();
    expect(databaseServerPid("mysql://root@db.invalid:3306")).toBeNull();
  });
});

describe("MemorySampler", () => {
  /** One peak sample now, as the sampler's timer takes them. */
  const peakSample = (sampler: MemorySampler) => (sampler as unknown as { read(phase: "peak"): void }).read("peak");

  it("reads a service's primary and its worker, keeps the readings of a worker that exits, and finds the tree again", async () => {
    // A primary that starts one worker and prints its pid; both wait to be killed.
    const primary = spawn(process.execPath, ["-e", "const w = require('node:child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']); console.log(w.pid); setTimeout(() => {}, 60000)"]);
    try {
      const workerPid = Number(await new Promise<string>((r) => primary.stdout.once("data", (d: Buffer) => r(d.toString().trim()))));
      expect(processTrees([primary.pid!, 999_999_999])).toEqual(new Map([[primary.pid!, [primary.pid!, workerPid]], [999_999_999, []]]));
      let scans = 0;
      const sampler = new MemorySampler(new Map([["svc", primary.pid!]]), (roots) => {
        scans++;
        return processTrees(roots);
      });
      sampler.idle();
      expect(scans).toBe(1);
      // Peak samples reuse the scan while both processes live.
      sampler.start(60_000);
      peakSample(sampler);
      expect(scans).toBe(1);
      process.kill(workerPid);
      await new Promise((r) => setTimeout(r, 100));
      // The sample that finds the worker gone still uses the old trees; the next one scans again.
      sampler.stop();
      expect(scans).toBe(1);
      peakSample(sampler);
      expect(scans).toBe(2);
      sampler.after();
      expect(scans).toBe(3);
      // However long everything lives, every RESCAN_EVERY-th peak sample scans again.
      for (let i = 0; i < RESCAN_EVERY; i++) peakSample(sampler);
      expect(scans).toBe(4);
      const [first, second] = sampler.results().get("svc")!;
      expect(first!.pid).toBe(primary.pid);
      expect(first!.peak).toBeGreaterThanOrEqual(first!.idle!);
      expect(first!.after).toBeGreaterThan(0);
      expect(second).toMatchObject({ pid: workerPid, role: "worker 1", after: null });
      expect(second!.idle).toBeGreaterThan(0);
    } finally {
      primary.kill();
    }
  });
});

describe("benchClientAddress", () => {
  it("gives each bench customer of a run its own address of 198.18.0.0/15, and the next run others", () => {
    const inRange = (a: string) => /^198\.(18|19)\.\d{1,3}\.\d{1,3}$/.test(a) && a.split(".").every((x) => Number(x) <= 255);
    const run = Date.UTC(2026, 2, 10, 9, 0, 0);
    const first = Array.from({ length: 256 }, (_, i) => benchClientAddress(run, i));
    const next = Array.from({ length: 256 }, (_, i) => benchClientAddress(run + 1, i));
    expect(first.every(inRange) && next.every(inRange)).toBe(true);
    expect(new Set(first).size).toBe(256);
    expect(new Set([...first, ...next]).size).toBe(512);
    expect(benchClientAddress(0, 0)).toBe("198.18.0.1");
    expect(benchClientAddress(510, 255)).toBe("198.19.255.0");
  });
});

describe("ensureBenchCustomers", () => {
  it("puts the customers in the default website, serving the chain it serves already or else the bench's chain, by their ids", async () => {
    const name = throwawayDatabaseName("bench_shop");
    await createMigratedDatabase("connector", name);
    const shop = openConnectorDatabase(TEST_DATABASE_URL, name);
    try {
      // the connector started alone without SEED_CHAIN_ID: a website serving no chain
      await seedConnector(shop.db, { chainId: undefined });
      const settings = { databaseUrl: TEST_DATABASE_URL, webshopDb: name } as BenchSettings;
      const first = await ensureBenchCustomers(settings, 2, 7);
      expect(first.chainId).toBe(7);
      const [[site]] = (await shop.pool.query("SELECT website_id FROM store_website WHERE is_default = 1")) as any;
      expect((await shop.pool.query("SELECT service_chain_id AS chain, website_id AS website FROM service_chain_website"))[0]).toEqual([{ chain: 7, website: site.website_id }]);
      const [customers] = (await shop.pool.query("SELECT email, website_id FROM customer_entity ORDER BY email")) as any;
      expect(customers).toEqual([0, 1].map((i) => ({ email: benchCustomerEmail(i), website_id: site.website_id })));
      // a website serving a chain already keeps it
      expect(await ensureBenchCustomers(settings, 2, 9)).toEqual({ hash: first.hash, chainId: 7 });
    } finally {
      await shop.close();
      await dropDatabase(name);
    }
  });
});

describe("fulltextQuery", () => {
  it("requires every word as a prefix and drops boolean-mode operators", () => {
    expect(fulltextQuery("bak")).toBe("+bak*");
    expect(fulltextQuery("albert-heijn +x*")).toBe("+albert* +heijn* +x*");
  });
});

describe("on a database", () => {
  let dbName: string;
  let database: CoreDatabase;
  let chainId: number;
  const STORES = 10_000;

  beforeAll(async () => {
    dbName = throwawayDatabaseName("bench");
    await migrateCoreDatabase(TEST_DATABASE_URL, dbName);
    database = openCoreDatabase(TEST_DATABASE_URL, dbName);
    chainId = await createChain(database.db, "Bench Test Chain");
    await loadStores(database.db, chainId, STORES);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    if (dbName) await dropDatabase(dbName);
  });

  it("the anchor finds the same pages and totals as the full scan, for every search", async () => {
    // from no anchor, whichever test built one before
    await database.db.execute(sql`DROP TABLE IF EXISTS ${sql.raw(ANCHOR_TABLE)}`);
    expect(await ensureAnchor(database.db, chainId, STORES)).toMatchObject({ reused: false });
    expect(await ensureAnchor(database.db, chainId, STORES)).toMatchObject({ reused: true, seconds: 0 });
    for (const c of benchCases(AMSTERDAM_CENTRAAL, 25, "bak", 25)) {
      const anchor = await runAnchor(database.db, c, chainId);
      const scan = await runBaseline(database.db, c, chainId);
      expect(scan.page.total, c.key).toBeGreaterThan(0);
      expect(comparePages(anchor.page, scan.page), c.key).toEqual([]);
    }
  });

  it("the anchor is rebuilt when the chain's stores changed", async () => {
    // an anchor of every store to start from (the test above leaves one; built here otherwise)
    await ensureAnchor(database.db, chainId, STORES);
    const [[first]] = (await database.db.execute(sql`SELECT MIN(id) AS id FROM businesses WHERE chain_id = ${chainId}`)) as unknown as [[{ id: number }]];
    await database.db.execute(sql`UPDATE businesses SET deleted = 1 WHERE id = ${first.id}`);
    try {
      expect(await ensureAnchor(database.db, chainId, STORES - 1)).toMatchObject({ reused: false });
      const [[row]] = (await database.db.execute(sql`SELECT COUNT(*) AS n FROM bench_anchor_businesses`)) as unknown as [[{ n: number }]];
      expect(Number(row.n)).toBe(STORES - 1);
    } finally {
      // the store back, for the tests that count every store
      await database.db.execute(sql`UPDATE businesses SET deleted = 0 WHERE id = ${first.id}`);
    }
  });

  it("replays captured statements as sent: prepared ones with their values, concurrent ones concurrently", async () => {
    // Two pooled connections open first, so neither statement below waits for a handshake.
    await Promise.all([database.pool.query("SELECT 1"), database.pool.query("SELECT 1")]);
    const capture = captureStatements(database.pool);
    await database.pool.execute("INSERT INTO chains (name) VALUES (?)", ["Replayed Chain"]);
    await Promise.all([database.pool.query("SELECT SLEEP(0.3)"), database.pool.query("SELECT SLEEP(0.3)")]);
    const captured = capture.take();
    expect(captured.map((s) => s.command)).toEqual(["Execute", "Query", "Query"]);
    expect(captured[0]!.values).toEqual(["Replayed Chain"]);
    expect(waves(captured).map((w) => w.length)).toEqual([1, 2]);

    const replayed = captureStatements(database.pool);
    await replay(database.pool, captured);
    const sent = replayed.take();
    expect(sent.map((s) => [s.command, s.sql, s.values])).toEqual(captured.map((s) => [s.command, s.sql, s.values]));
    // The two sleeps went out side by side, each before the other answered.
    expect(waves(sent).map((w) => w.length)).toEqual([1, 2]);
    const [[count]] = (await database.pool.query("SELECT COUNT(*) AS n FROM chains WHERE name = 'Replayed Chain'")) as unknown as [[{ n: number }]];
    expect(Number(count.n)).toBe(2);
  });
});
