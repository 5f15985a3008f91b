/**
 * Loads the benchmark's stores into their own chain, straight into the core database through
 * `insertBusinesses` (the bulk insert that also writes grid cells and the word index), in batches.
 * The load is cached by chain name: a chain that already holds the wanted number of live stores
 * is reused, so reruns go straight to measuring.
 */
import cliProgress from "cli-progress";
import { sql } from "drizzle-orm";
import { hashPassword } from "../core-api/src/crypto/passwords.ts";
import { insertBusinesses } from "../core-api/src/businesses/business-repository.ts";
import type { CoreDb } from "../core-api/src/db/client.ts";
import { createAdmin, createChain, grantAccess } from "../core-api/src/db/seed.ts";
import { generateStores } from "./dataset.ts";

/** Rows per insertBusinesses call (one transaction, one multi-row INSERT). */
export const LOAD_BATCH = 4000;
/** The benchmark's admin: a super user of the bench chain only. */
export const BENCH_ADMIN_USERNAME = "bench-admin@bench.invalid";

const rowsOf = async <T>(db: CoreDb, q: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(q)) as unknown as [T[]])[0];

/** The live stores of chain `chainId`. */
export async function countStores(db: CoreDb, chainId: number): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(db, sql`SELECT COUNT(*) AS n FROM businesses WHERE chain_id = ${chainId} AND deleted = 0`);
  return Number(row?.n ?? 0);
}

/** The id of the live chain named `name`, creating the chain when there is none. */
export async function ensureChain(db: CoreDb, name: string): Promise<{ chainId: number; created: boolean }> {
  const [row] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM chains WHERE name = ${name} AND deleted = 0 ORDER BY id LIMIT 1`);
  if (row) return { chainId: Number(row.id), created: false };
  return { chainId: await createChain(db, name), created: true };
}

/**
 * Makes sure the bench admin exists with a fresh random password (the password is not kept
 * anywhere, so each run sets a new one).
 * @returns the admin's id and the credentials to log in with over HTTP
 */
export async function ensureBenchAdmin(db: CoreDb): Promise<{ adminId: number; username: string; password: string }> {
  const username = BENCH_ADMIN_USERNAME;
  const password = `bench-${crypto.randomUUID()}`;
  const [row] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM admin_users WHERE username = ${username}`);
  let adminId: number;
  if (row) {
    adminId = Number(row.id);
    await db.execute(sql`UPDATE admin_users SET password_hash = ${await hashPassword(password)}, active = 1 WHERE id = ${adminId}`);
  } else {
    adminId = await createAdmin(db, { username, password, firstname: "Bench", lastname: "Admin" });
  }
  return { adminId, username, password };
}

/** Gives the bench admin `adminId` read, write and super-user rights on chain `chainId`. */
export async function grantBenchAdmin(db: CoreDb, adminId: number, chainId: number): Promise<void> {
  await grantAccess(db, adminId, chainId, { read: true, write: true, super_user: true });
}

/** Deletes every store of chain `chainId` and its words, in chunks (for `--reload`). */
export async function wipeStores(db: CoreDb, chainId: number): Promise<void> {
  for (const table of [sql`business_geo_cell_counts`, sql`business_search_word_counts`, sql`business_search_tokens`, sql`businesses`]) {
    for (;;) {
      const [res] = (await db.execute(sql`DELETE FROM ${table} WHERE chain_id = ${chainId} LIMIT 50000`)) as unknown as [
        { affectedRows: number },
      ];
      if (res.affectedRows === 0) break;
    }
  }
}

/**
 * Inserts `count` generated stores into chain `chainId` in batches of LOAD_BATCH, showing a
 * progress bar.
 * @param concurrency batches in flight, each on its own pooled connection (default 1: on MariaDB two
 *   concurrent bulk inserts into the same indexes ran slower than one)
 * @returns seconds taken
 */
export async function loadStores(db: CoreDb, chainId: number, count: number, concurrency = 1): Promise<number> {
  const bar = new cliProgress.SingleBar(
    {
      format: "  loading {bar} {percentage}% | {value}/{total} stores | {rate} stores/s | ETA {eta_formatted}",
      noTTYOutput: true,
      notTTYSchedule: 10_000,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  const now = new Date();
  bar.start(count, 0, { rate: 0 });
  const stores = generateStores(chainId, count);
  let done = 0;
  const nextBatch = () => {
    const batch = [];
    for (let r = stores.next(); !r.done; r = stores.next()) {
      batch.push(r.value);
      if (batch.length === LOAD_BATCH) break;
    }
    return batch;
  };
  // The generator is shared: each lane takes the next batch when its previous one is stored.
  const lane = async () => {
    for (let batch = nextBatch(); batch.length > 0; batch = nextBatch()) {
      await insertBusinesses(db, batch, now);
      done += batch.length;
      bar.update(done, { rate: Math.round(done / ((performance.now() - started) / 1000)) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  bar.stop();
  return (performance.now() - started) / 1000;
}
