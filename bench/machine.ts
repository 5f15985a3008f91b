/**
 * The machine a benchmark ran on: CPU, memory, Node and database versions, and the database
 * settings that matter for the figures.
 */
import os from "node:os";
import { sql } from "drizzle-orm";
import type { CoreDb } from "../core-api/src/db/client.ts";

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  database: string;
  /** InnoDB buffer pool in MiB */
  bufferPoolMiB: number;
  /** 1-minute load average when the measurement started (other work on the machine) */
  loadAverage: number;
}

/** Describes this machine and the database server behind `db`. */
export async function describeMachine(db: CoreDb): Promise<Machine> {
  const [rows] = (await db.execute(
    sql`SELECT VERSION() AS version, @@version_comment AS comment, @@innodb_buffer_pool_size AS pool`,
  )) as unknown as [Array<{ version: string; comment: string; pool: number }>];
  const r = rows[0]!;
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    database: `${r.version}${r.comment ? ` (${r.comment})` : ""}`,
    bufferPoolMiB: Math.round(Number(r.pool) / 2 ** 20),
    loadAverage: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}
