/**
 * Throwaway databases for tests: every test file gets its own, so files run in parallel.
 * The server is DATABASE_URL (default mysql://root@127.0.0.1:3306).
 */
import { randomBytes } from "node:crypto";
import mysql from "mysql2/promise";

export const TEST_DATABASE_URL = process.env.DATABASE_URL ?? "mysql://root@127.0.0.1:3306";

/** A fresh database name such as `test_core_3f9a1c2b`. */
export function throwawayDatabaseName(prefix: string): string {
  return `test_${prefix}_${randomBytes(4).toString("hex")}`;
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
