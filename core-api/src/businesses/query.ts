import type { SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";

/** Runs `statement` and returns its rows. */
export async function rows<T>(db: CoreDb, statement: SQL): Promise<T[]> {
  const [result] = (await db.execute(statement)) as unknown as [T[]];
  return result;
}

/** Runs `statement` and returns its first row, if any. */
export async function one<T>(db: CoreDb, statement: SQL): Promise<T | undefined> {
  return (await rows<T>(db, statement))[0];
}
