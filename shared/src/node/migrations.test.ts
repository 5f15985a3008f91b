/**
 * The migrations runner both services share (migrations.ts): a database is created when missing
 * and migrated on the service's own pool; a bad name or an unreachable server is one clear line
 * (the URL's password never in it). Against the real database server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/mysql2";
import mysql from "mysql2/promise";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { readAppliedMigrations } from "./applied-migrations.ts";
import { ensureDatabase, migrateDatabase, type OpenForMigrations } from "./migrations.ts";

const name = throwawayDatabaseName("shared_migrate");
/** A drizzle-kit output folder of two migrations (what each service commits under db/migrations). */
const folder = mkdtempSync(path.join(tmpdir(), "shared-migrations-"));
const JOURNAL = { version: "7", dialect: "mysql", entries: [
  { idx: 0, version: "5", when: 1700000000000, tag: "0000_first", breakpoints: true },
  { idx: 1, version: "5", when: 1700000100000, tag: "0001_second", breakpoints: true },
] };
mkdirSync(path.join(folder, "meta"));
writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify(JOURNAL));
writeFileSync(path.join(folder, "0000_first.sql"), "CREATE TABLE `probe` (`id` int PRIMARY KEY)");
writeFileSync(path.join(folder, "0001_second.sql"), "ALTER TABLE `probe` ADD `note` varchar(20)");

/** A service's opener, as openCoreDatabase / openConnectorDatabase are; remembers what it was asked. */
const asked: unknown[] = [];
const open: OpenForMigrations = (url, database, options) => {
  asked.push(options);
  const pool = mysql.createPool({ uri: `${url}/${database}`, connectionLimit: options.connectionLimit });
  return { db: drizzle(pool), close: () => pool.end() };
};
// Each test hears only what it asked itself (other tests open databases too).
beforeEach(() => {
  asked.length = 0;
});

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await dropDatabase(name);
});

describe("migrateDatabase", () => {
  it("creates the database, applies every migration once, and a second run changes nothing", async () => {
    await migrateDatabase(TEST_DATABASE_URL, name, folder, open);
    await migrateDatabase(TEST_DATABASE_URL, name, folder, open);
    // one connection of the service's pool, without a statement timeout (a migration may be long)
    expect(asked).toEqual([{ connectionLimit: 1, timeouts: { queryTimeoutMs: 0 } }, { connectionLimit: 1, timeouts: { queryTimeoutMs: 0 } }]);
    const database = open(TEST_DATABASE_URL, name, { connectionLimit: 1, timeouts: {} });
    try {
      expect((await readAppliedMigrations(database.db)).sort()).toEqual([1700000000000, 1700000100000]);
      const [columns] = (await database.db.execute("SHOW COLUMNS FROM probe")) as unknown as [Array<{ Field: string }>];
      expect(columns.map((c) => c.Field)).toEqual(["id", "note"]);
    } finally {
      await database.close();
    }
  });
});

describe("ensureDatabase", () => {
  it("refuses a name outside [A-Za-z0-9_] before connecting", async () => {
    await expect(ensureDatabase("mysql://nobody:pw@127.0.0.1:1", "bad-name; DROP")).rejects.toThrow("invalid database name: bad-name; DROP");
  });

  it("names an unreachable server without its password", async () => {
    const err = await ensureDatabase("mysql://someone:hunter2@127.0.0.1:1", "fine_name").catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^cannot reach MySQL at mysql:\/\/someone:\*\*\*@127\.0\.0\.1:1: /);
    expect((err as Error).message).not.toContain("hunter2");
  });
});

describe("readAppliedMigrations", () => {
  it("is empty for a database the migrator never ran on", async () => {
    const empty = throwawayDatabaseName("shared_unmigrated");
    await ensureDatabase(TEST_DATABASE_URL, empty);
    const database = open(TEST_DATABASE_URL, empty, { connectionLimit: 1, timeouts: {} });
    try {
      expect(await readAppliedMigrations(database.db)).toEqual([]);
    } finally {
      await database.close();
      await dropDatabase(empty);
    }
  });
});
