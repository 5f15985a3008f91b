/**
 * Throwaway databases for tests: every test file gets its own, so files run in parallel.
 * The server is DATABASE_URL (default mysql://root@127.0.0.1:3306).
 *
 * Every name starts with `test_` and ends with `_<creation time>_<8 random hex>` (the time in
 * base-36 seconds), so a later run can tell one a killed run left behind (dropStaleTestDatabases).
 */
import { randomBytes } from "node:crypto";
import mysql from "mysql2/promise";

export const TEST_DATABASE_URL = process.env.DATABASE_URL ?? "mysql://root@127.0.0.1:3306";

/** `<base-36 seconds since 1970>_<8 random hex>`, e.g. `tdj3kq_3f9a1c2b`: the end of every test database's name. */
export function uniqueSuffix(now: Date = new Date()): string {
  return `${Math.floor(now.getTime() / 1000).toString(36)}_${randomBytes(4).toString("hex")}`;
}

/** Prefix of the names of the run's template databases (database-templates.ts). */
export const TEMPLATE_PREFIX = "test_tpl_";

/** A fresh database name such as `test_core_tdj3kq_3f9a1c2b`. */
export function throwawayDatabaseName(prefix: string): string {
  return `test_${prefix}_${uniqueSuffix()}`;
}

/** Drops database `name` if it exists. */
export async function dropDatabase(name: string): Promise<void> {
  const conn = await mysql.createConnection(TEST_DATABASE_URL);
  try {
    await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await conn.end();
  }
}

/** Names made before 2025 or in the future are no creation times (an older name's last words). */
const PLAUSIBLE_SINCE_MS = Date.UTC(2025, 0, 1);

/**
 * When test database `name` was made, read from its name's suffix (uniqueSuffix); undefined for
 * a name without a plausible one (made before the suffix, or not a test database).
 */
export function createdAtFromName(name: string, now: Date = new Date()): Date | undefined {
  const m = /^test_.*_([0-9a-z]{6,7})_[0-9a-f]{8}$/.exec(name);
  if (!m) return undefined;
  const ms = parseInt(m[1]!, 36) * 1000;
  return ms >= PLAUSIBLE_SINCE_MS && ms <= now.getTime() + 3_600_000 ? new Date(ms) : undefined;
}

/**
 * Drops the `test_*` databases older than `maxAgeMs`: those killed runs left behind. The age is
 * read from the name (createdAtFromName); for names without a time, from the newest table's
 * creation time (a database without tables is kept).
 * @param like which databases to look at, a LIKE pattern; default every `test_*`
 * @returns the names dropped
 */
export async function dropStaleTestDatabases(databaseUrl: string, maxAgeMs: number, now: Date = new Date(), like = "test\\_%"): Promise<string[]> {
  const conn = await mysql.createConnection(databaseUrl);
  try {
    const [schemata] = await conn.query<mysql.RowDataPacket[]>(
      "SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?", [like]);
    const names = schemata.map((r) => String(r.name));
    const cutoff = now.getTime() - maxAgeMs;
    const stale = names.filter((n) => (createdAtFromName(n, now)?.getTime() ?? Infinity) < cutoff);
    const unnamed = names.filter((n) => createdAtFromName(n, now) === undefined);
    if (unnamed.length > 0) {
      const [ages] = await conn.query<mysql.RowDataPacket[]>(
        "SELECT TABLE_SCHEMA AS name, MAX(CREATE_TIME) AS created FROM information_schema.TABLES WHERE TABLE_SCHEMA IN (?) GROUP BY TABLE_SCHEMA",
        [unnamed]);
      for (const { name, created } of ages) if (created && new Date(created).getTime() < cutoff) stale.push(String(name));
    }
    for (const name of stale) await conn.query(`DROP DATABASE IF EXISTS \`${name.replace(/`/g, "``")}\``);
    return stale;
  } finally {
    await conn.end();
  }
}
