/**
 * Copies a database on the same MySQL / MariaDB server: schema, rows, views and triggers. Neither
 * server has `CREATE DATABASE ... TEMPLATE`, so the copy replays the template's own DDL: `SHOW
 * CREATE TABLE` (not `CREATE TABLE ... LIKE`, which drops foreign keys and the AUTO_INCREMENT
 * counter), then `INSERT ... SELECT` of every table that has rows (drizzle's `__drizzle_migrations`
 * journal and the rows migrations seed), then views (references to the template renamed) and
 * triggers. Stored routines and events are refused: nothing uses them yet, and a copy without
 * them would be wrong silently.
 *
 * Used by test/helpers/database-templates.ts to make each test file's throwaway database.
 */
import mysql from "mysql2/promise";

/** What it takes to make one copy of a template, read once from the template. */
export interface CopyPlan {
  /** the template database the plan was read from */
  from: string;
  charset: string;
  collation: string;
  /** `CREATE TABLE` statements (unqualified names: they run in the target) */
  tables: string[];
  /** `INSERT INTO t (cols) SELECT cols FROM template.t`, one per table holding rows (generated columns left out) */
  rows: string[];
  /** `CREATE VIEW` statements, template references renamed at copy time */
  views: string[];
  /** `CREATE TRIGGER` statements, each run on its own */
  triggers: string[];
}

const quote = (name: string) => `\`${name.replace(/`/g, "``")}\``;
const SAFE_NAME = /^[A-Za-z0-9_]+$/;

/**
 * Reads what copying database `from` takes.
 * @param conn a connection to the server (any current database)
 * @throws Error when `from` does not exist, or holds stored routines or events (not copied)
 */
export async function readCopyPlan(conn: mysql.Connection, from: string): Promise<CopyPlan> {
  const [schemata] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT DEFAULT_CHARACTER_SET_NAME AS cs, DEFAULT_COLLATION_NAME AS coll FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", [from]);
  if (schemata.length === 0) throw new Error(`readCopyPlan: no database ${from}`);
  const [others] = await conn.query<mysql.RowDataPacket[]>(
    `SELECT (SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?) +
            (SELECT COUNT(*) FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ?) AS n`, [from, from]);
  if (Number(others[0]!.n) > 0) throw new Error(`readCopyPlan: ${from} has stored routines or events, which copies do not carry`);
  const [listed] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME", [from]);
  const plan: CopyPlan = { from, charset: schemata[0]!.cs, collation: schemata[0]!.coll, tables: [], rows: [], views: [], triggers: [] };
  for (const { name, type } of listed as Array<{ name: string; type: string }>) {
    const qualified = `${quote(from)}.${quote(name)}`;
    if (type === "VIEW") {
      const [[view]] = await conn.query<mysql.RowDataPacket[]>(`SHOW CREATE VIEW ${qualified}`);
      plan.views.push(view!["Create View"]);
      continue;
    }
    const [[table]] = await conn.query<mysql.RowDataPacket[]>(`SHOW CREATE TABLE ${qualified}`);
    plan.tables.push(table!["Create Table"]);
    const [any] = await conn.query<mysql.RowDataPacket[]>(`SELECT 1 FROM ${qualified} LIMIT 1`);
    if (any.length === 0) continue;
    const [columns] = await conn.query<mysql.RowDataPacket[]>(
      // GENERATION_EXPRESSION: NULL (MariaDB) or '' (MySQL 8) unless the column is generated
      "SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COALESCE(GENERATION_EXPRESSION, '') = '' ORDER BY ORDINAL_POSITION",
      [from, name]);
    const list = columns.map((r) => quote(r.c)).join(", ");
    plan.rows.push(`INSERT INTO ${quote(name)} (${list}) SELECT ${list} FROM ${qualified}`);
  }
  const [triggers] = await conn.query<mysql.RowDataPacket[]>(
    "SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ? ORDER BY ACTION_ORDER, TRIGGER_NAME", [from]);
  for (const { name } of triggers as Array<{ name: string }>) {
    const [[trigger]] = await conn.query<mysql.RowDataPacket[]>(`SHOW CREATE TRIGGER ${quote(from)}.${quote(name)}`);
    plan.triggers.push(trigger!["SQL Original Statement"]);
  }
  return plan;
}

/**
 * Creates database `to` as a copy of the plan's template (same default character set and
 * collation, tables with their keys, foreign keys and AUTO_INCREMENT counters, rows, views,
 * triggers). Nothing is copied if `to` exists.
 * @param databaseUrl the server, e.g. `mysql://root@127.0.0.1:3306`
 * @param plan from readCopyPlan; the template must not have changed since
 * @throws Error when `to` is not `[A-Za-z0-9_]+` or exists, or a statement fails (then `to` is dropped)
 */
export async function copyDatabase(databaseUrl: string, plan: CopyPlan, to: string): Promise<void> {
  if (!SAFE_NAME.test(to)) throw new Error(`copyDatabase: invalid database name ${to}`);
  const conn = await mysql.createConnection({ uri: databaseUrl, multipleStatements: true });
  try {
    await conn.query(`CREATE DATABASE ${quote(to)} CHARACTER SET ${plan.charset} COLLATE ${plan.collation}`);
    try {
      // Views name their tables with the template's database: `tpl`.`t` becomes `to`.`t`.
      const renamed = plan.views.map((v) => v.split(`${quote(plan.from)}.`).join(`${quote(to)}.`));
      // One round trip for the tables and rows; views may use views, so they go one by one below.
      const statements = [`USE ${quote(to)}`, "SET SESSION foreign_key_checks = 0", ...plan.tables, ...plan.rows, "SET SESSION foreign_key_checks = 1"];
      await conn.query(statements.join(";\n"));
      await createInAnyOrder(conn, renamed);
      // Triggers last, so copying rows fires none; their bodies hold semicolons, so one per query.
      for (const trigger of plan.triggers) await conn.query(trigger);
    } catch (err) {
      await conn.query(`DROP DATABASE IF EXISTS ${quote(to)}`);
      throw err;
    }
  } finally {
    await conn.end();
  }
}

/** Runs CREATE VIEW statements, retrying those whose views do not exist yet until none is left. */
async function createInAnyOrder(conn: mysql.Connection, views: string[]): Promise<void> {
  let pending = views;
  while (pending.length > 0) {
    const failed: Array<{ view: string; err: unknown }> = [];
    for (const view of pending) {
      try {
        await conn.query(view);
      } catch (err) {
        failed.push({ view, err });
      }
    }
    if (failed.length === pending.length) throw failed[0]!.err;
    pending = failed.map((f) => f.view);
  }
}
