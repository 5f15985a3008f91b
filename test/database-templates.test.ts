/**
 * Test databases as copies of a migrated template (test/helpers/database-templates.ts,
 * database-copy.ts): a copy is the same as a migrated database, table by table and row by row;
 * the copier carries foreign keys, generated columns, AUTO_INCREMENT counters, views and triggers;
 * concurrent workers share one template build; stale test databases are swept, live ones kept.
 */
import { randomBytes } from "node:crypto";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { migrateConnectorDatabase } from "../connector/src/db/migrate.node.ts";
import { copyDatabase, readCopyPlan } from "./helpers/database-copy.ts";
import { createMigratedDatabase, ensureTemplate, templateName, type MigratedService } from "./helpers/database-templates.ts";
import {
  createdAtFromName, dropDatabase, dropStaleTestDatabases, TEST_DATABASE_URL, throwawayDatabaseName, uniqueSuffix,
} from "./helpers/databases.ts";
import { dropRunTemplates } from "./helpers/test-run-databases.ts";

let sql: mysql.Connection;
const made: string[] = [];
/** A throwaway database name, dropped after the file. */
const fresh = (prefix: string) => {
  const name = throwawayDatabaseName(prefix);
  made.push(name);
  return name;
};

beforeAll(async () => {
  sql = await mysql.createConnection({ uri: TEST_DATABASE_URL, multipleStatements: true });
});
afterAll(async () => {
  await sql?.end();
  for (const name of made) await dropDatabase(name);
});

/** Every object of database `name`: DDL with the database's own name blanked, and every table's rows. */
async function describeDatabase(name: string) {
  const [[schema]] = await sql.query<mysql.RowDataPacket[]>(
    "SELECT DEFAULT_CHARACTER_SET_NAME AS cs, DEFAULT_COLLATION_NAME AS coll FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", [name]);
  const [tables] = await sql.query<mysql.RowDataPacket[]>(
    "SELECT TABLE_NAME AS t, TABLE_TYPE AS type FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME", [name]);
  const blank = (ddl: string) => ddl.split(`\`${name}\`.`).join("`DB`.");
  const ddl: Record<string, string> = {};
  const rows: Record<string, string[]> = {};
  for (const { t, type } of tables) {
    if (type === "VIEW") {
      const [[v]] = await sql.query<mysql.RowDataPacket[]>(`SHOW CREATE VIEW \`${name}\`.\`${t}\``);
      ddl[t] = blank(v!["Create View"]);
    } else {
      const [[c]] = await sql.query<mysql.RowDataPacket[]>(`SHOW CREATE TABLE \`${name}\`.\`${t}\``);
      ddl[t] = c!["Create Table"];
    }
    const [r] = await sql.query<mysql.RowDataPacket[]>(`SELECT * FROM \`${name}\`.\`${t}\``);
    rows[t] = r.map((row) => JSON.stringify(row)).sort();
  }
  const [triggers] = await sql.query<mysql.RowDataPacket[]>(
    "SELECT TRIGGER_NAME AS name, ACTION_TIMING AS timing, EVENT_MANIPULATION AS event, EVENT_OBJECT_TABLE AS tbl, ACTION_STATEMENT AS body FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY TRIGGER_NAME",
    [name]);
  const [constraints] = await sql.query<mysql.RowDataPacket[]>(
    "SELECT CONSTRAINT_NAME AS name, TABLE_NAME AS tbl, REFERENCED_TABLE_NAME AS ref, UPDATE_RULE AS upd, DELETE_RULE AS del FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = ? ORDER BY CONSTRAINT_NAME",
    [name]);
  return { schema: { ...schema }, ddl, rows, triggers: triggers.map((t) => ({ ...t })), foreignKeys: constraints.map((c) => ({ ...c })) };
}

describe.each<[MigratedService, (url: string, name: string) => Promise<void>]>([
  ["core", migrateCoreDatabase],
  ["connector", migrateConnectorDatabase],
])("a %s test database", (service, migrate) => {
  it("is a copy of this run's template, identical to a migrated one: every table's DDL and rows, the journal included", async () => {
    const copied = fresh(`tplcmp_${service}`);
    const migrated = fresh(`tplcmp_${service}`);
    await createMigratedDatabase(service, copied);
    await migrate(TEST_DATABASE_URL, migrated);
    const template = templateName(service, inject("testDatabaseRun"));
    const [exists] = await sql.query<mysql.RowDataPacket[]>("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", [template]);
    expect(exists).toHaveLength(1);

    const [a, b] = [await describeDatabase(copied), await describeDatabase(migrated)];
    expect(Object.keys(a.ddl)).toEqual(Object.keys(b.ddl));
    expect(Object.keys(a.ddl)).toContain("__drizzle_migrations");
    for (const table of Object.keys(b.ddl)) {
      expect(a.ddl[table], table).toBe(b.ddl[table]);
      expect(a.rows[table], table).toEqual(b.rows[table]);
    }
    expect(a.rows.__drizzle_migrations!.length).toBeGreaterThan(0);
    expect([a.schema, a.triggers, a.foreignKeys]).toEqual([b.schema, b.triggers, b.foreignKeys]);
  });
});

describe("copyDatabase", () => {
  it("carries foreign keys, generated columns, AUTO_INCREMENT counters, rows, views on views and triggers, all pointing at the copy", async () => {
    const from = fresh("copysrc");
    const to = fresh("copydst");
    await sql.query(`CREATE DATABASE \`${from}\` CHARACTER SET latin1 COLLATE latin1_swedish_ci`);
    await sql.query(`
      USE \`${from}\`;
      CREATE TABLE parent (id int AUTO_INCREMENT PRIMARY KEY, name varchar(20) NOT NULL, upper_name varchar(20) AS (UPPER(name)) VIRTUAL);
      CREATE TABLE child (id int AUTO_INCREMENT PRIMARY KEY, parent_id int NOT NULL,
        CONSTRAINT child_parent FOREIGN KEY (parent_id) REFERENCES parent (id) ON DELETE CASCADE);
      CREATE TABLE audit (id int AUTO_INCREMENT PRIMARY KEY, what varchar(40) NOT NULL);
      INSERT INTO parent (name) VALUES ('ann'), ('bob');
      USE mysql`);
    // Ids as the server hands them out (auto_increment_increment / _offset need not be 1).
    const [cy] = await sql.query<mysql.ResultSetHeader>(`INSERT INTO \`${from}\`.parent (name) VALUES ('cy')`);
    await sql.query(`
      USE \`${from}\`;
      DELETE FROM parent WHERE name = 'cy';
      INSERT INTO child (parent_id) SELECT id FROM parent ORDER BY id;
      CREATE VIEW parent_names AS SELECT id, upper_name FROM parent;
      CREATE VIEW first_parent_name AS SELECT upper_name FROM parent_names WHERE id = (SELECT MIN(id) FROM parent);
      CREATE TRIGGER child_audit AFTER INSERT ON child FOR EACH ROW BEGIN
        INSERT INTO audit (what) VALUES (CONCAT('child ', NEW.id)); INSERT INTO audit (what) VALUES ('again');
      END;
      USE mysql`);

    await copyDatabase(TEST_DATABASE_URL, await readCopyPlan(sql, from), to);
    const [a, b] = [await describeDatabase(from), await describeDatabase(to)];
    expect(b).toEqual(a);
    expect(a.ddl.parent).toMatch(/AUTO_INCREMENT=\d+/);
    expect(a.schema).toEqual({ cs: "latin1", coll: "latin1_swedish_ci" });
    expect(a.foreignKeys).toHaveLength(1);
    expect(a.triggers).toHaveLength(1);
    expect(a.rows.audit).toEqual([]); // copying rows fired no trigger

    // The copy's objects act on the copy, and the template is untouched.
    const [dee] = await sql.query<mysql.ResultSetHeader>(`INSERT INTO \`${to}\`.parent (name) VALUES ('dee')`);
    expect(dee.insertId).toBeGreaterThan(cy.insertId); // the deleted row's id is not handed out again
    const [child] = await sql.query<mysql.ResultSetHeader>(`INSERT INTO \`${to}\`.child (parent_id) VALUES (?)`, [dee.insertId]);
    await expect(sql.query(`INSERT INTO \`${to}\`.child (parent_id) VALUES (?)`, [cy.insertId])).rejects.toMatchObject({ code: "ER_NO_REFERENCED_ROW_2" });
    await sql.query(`UPDATE \`${to}\`.parent SET name = 'zed' WHERE name = 'ann'`);
    const [[named]] = await sql.query<mysql.RowDataPacket[]>(`SELECT upper_name FROM \`${to}\`.first_parent_name`);
    expect(named!.upper_name).toBe("ZED");
    const [audit] = await sql.query<mysql.RowDataPacket[]>(`SELECT what FROM \`${to}\`.audit ORDER BY id`);
    expect(audit.map((r) => r.what)).toEqual([`child ${child.insertId}`, "again"]);
    expect(await describeDatabase(from)).toEqual(a);
  });

  it("refuses a database with stored routines, an existing or badly named target, and leaves no half-made copy", async () => {
    const from = fresh("copyproc");
    await sql.query(`CREATE DATABASE \`${from}\`; CREATE TABLE \`${from}\`.t (id int PRIMARY KEY); INSERT INTO \`${from}\`.t VALUES (1)`);
    const plan = await readCopyPlan(sql, from);
    const existing = fresh("copyexists");
    await sql.query(`CREATE DATABASE \`${existing}\``);
    await expect(copyDatabase(TEST_DATABASE_URL, plan, existing)).rejects.toMatchObject({ code: "ER_DB_CREATE_EXISTS" });
    const [left] = await sql.query<mysql.RowDataPacket[]>("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", [existing]);
    expect(left).toEqual([]);
    await expect(copyDatabase(TEST_DATABASE_URL, plan, "test_bad-name")).rejects.toThrow(/invalid database name/);

    const broken = fresh("copybroken");
    await expect(copyDatabase(TEST_DATABASE_URL, { ...plan, rows: ["INSERT INTO t VALUES (1), (1)"] }, broken)).rejects.toMatchObject({ code: "ER_DUP_ENTRY" });
    const [gone] = await sql.query<mysql.RowDataPacket[]>("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", [broken]);
    expect(gone).toEqual([]);

    await sql.query(`CREATE PROCEDURE \`${from}\`.p() SELECT 1`);
    await expect(readCopyPlan(sql, from)).rejects.toThrow(/stored routines or events/);
    await expect(readCopyPlan(sql, fresh("copymissing"))).rejects.toThrow(/no database/);
  });
});

describe("the template", () => {
  it("is built once by concurrent workers, and rebuilt when a killed build left it incomplete", async () => {
    const name = templateName("connector", uniqueSuffix());
    made.push(name);
    // Separate calls, as separate worker processes make them: one builds, the others wait and share.
    const plans = await Promise.all([1, 2, 3].map(() => ensureTemplate("connector", name)));
    expect(plans[1]).toEqual(plans[0]);
    expect(plans[2]).toEqual(plans[0]);
    const [journal] = await sql.query<mysql.RowDataPacket[]>(`SELECT id FROM \`${name}\`.__drizzle_migrations`);
    expect(journal.length).toBeGreaterThan(0);

    await sql.query(`DELETE FROM \`${name}\`.__drizzle_migrations ORDER BY id DESC LIMIT 1`);
    await sql.query(`DROP TABLE \`${name}\`.customer_entity`);
    const rebuilt = await ensureTemplate("connector", name);
    expect(rebuilt).toEqual(plans[0]);
    const [again] = await sql.query<mysql.RowDataPacket[]>(`SELECT id FROM \`${name}\`.__drizzle_migrations`);
    expect(again).toHaveLength(journal.length);
  });

  it("of a run is dropped at its end; other runs' templates and test databases are kept", async () => {
    const run = uniqueSuffix();
    const other = uniqueSuffix();
    const names = [templateName("core", run), templateName("connector", run), templateName("core", other), throwawayDatabaseName(`x_${run}`)];
    made.push(...names);
    for (const name of names) await sql.query(`CREATE DATABASE \`${name}\``);
    await dropRunTemplates(TEST_DATABASE_URL, run);
    const [left] = await sql.query<mysql.RowDataPacket[]>("SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN (?)", [names]);
    expect(left.map((r) => r.n).sort()).toEqual([names[2], names[3]].sort());
  });
});

describe("stale test databases", () => {
  it("read their age from the name; names without a plausible time have none", () => {
    const now = new Date("2026-03-10T09:00:00Z");
    const stamp = Math.floor(now.getTime() / 1000).toString(36);
    expect(createdAtFromName(`test_core_${stamp}_0123abcd`, now)).toEqual(now);
    expect(createdAtFromName(`test_tpl_core_0a1b2c3d4e_${stamp}_0123abcd`, now)).toEqual(now);
    // the names before the time suffix: their last word is no time
    for (const old of ["test_core_3f9a1c2b", "test_webshop_frozen_3f9a1c2b", "test_runtime_3f9a1c2b", "service_core", `test_core_${stamp}_xyz`]) {
      expect(createdAtFromName(old, now), old).toBeUndefined();
    }
    const tomorrow = Math.floor(now.getTime() / 1000 + 86_400).toString(36);
    expect(createdAtFromName(`test_core_${tomorrow}_0123abcd`, now)).toBeUndefined();
  });

  it("are dropped when older than the limit, by name or else by their tables' age; fresh ones and others are kept", async () => {
    const tag = randomBytes(3).toString("hex");
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * 86_400_000);
    const named = (d: Date) => `test_sweep${tag}_${uniqueSuffix(d)}`;
    const old = named(twoDaysAgo);
    const young = named(now);
    const unnamedWithTable = `test_sweep${tag}_legacy_3f9a1c2b`;
    const unnamedEmpty = `test_sweep${tag}_legacyempty_3f9a1c2b`;
    made.push(old, young, unnamedWithTable, unnamedEmpty);
    for (const name of [old, young, unnamedWithTable, unnamedEmpty]) await sql.query(`CREATE DATABASE \`${name}\``);
    await sql.query(`CREATE TABLE \`${unnamedWithTable}\`.t (id int PRIMARY KEY)`);
    const pattern = `test\\_sweep${tag}\\_%`;
    expect(await dropStaleTestDatabases(TEST_DATABASE_URL, 86_400_000, now, pattern)).toEqual([old]);
    // a day and more later, the unnamed database with a table is stale too; the empty one is kept
    const later = new Date(now.getTime() + 86_400_000 + 60_000);
    expect(await dropStaleTestDatabases(TEST_DATABASE_URL, 86_400_000, later, `test\\_sweep${tag}\\_legacy%`)).toEqual([unnamedWithTable]);
    const [left] = await sql.query<mysql.RowDataPacket[]>("SELECT SCHEMA_NAME AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?", [pattern]);
    expect(left.map((r) => r.n).sort()).toEqual([young, unnamedEmpty].sort());
  });
});
