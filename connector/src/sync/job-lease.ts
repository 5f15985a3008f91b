/**
 * A lease in MySQL that lets one run of a job hold it at a time across every connector instance
 * (handbook, "Sync between the webshop and the platform": "it takes a lease in MySQL so two
 * connector instances never run it at once"). A row per job in `service_job_lease` with the
 * holder's random id and an expiry on the database's clock (one clock for every instance):
 * - take: one conditional UPDATE; it succeeds only when the lease is free or has lapsed;
 * - renew: the holder moves the expiry on while it works (a heartbeat); a renewal that finds
 *   another holder means the lease was lost (the run paused longer than the lease), and the run
 *   must stop;
 * - release: the holder frees it when done.
 * A holder that crashes or loses its database connection simply stops renewing and the lease
 * lapses after its duration: unlike GET_LOCK, nothing depends on one connection staying up, and
 * unlike a lock held by an open transaction, no row stays locked meanwhile. A holder that lives on
 * while the database restarts frees its lease once the database is back (releaseLeaseWhenBack), so
 * the next run need not wait for the lapse.
 */
import { randomUUID } from "node:crypto";
import { isDatabaseUnavailable } from "@service/shared/node";
import { and, eq, sql } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { serviceJobLease } from "../db/schema.ts";
import { runStatement } from "@service/shared/node";

/** A lease taken by this process. */
export interface HeldLease {
  job: string;
  /** the holder's random id */
  owner: string;
}

/** Who holds a lease another run asked for. */
export interface LeaseHolder {
  owner: string;
  /** when it lapses unless renewed (database clock) */
  expiresAt: Date;
}

/** The affected-row count of a mysql2 result as drizzle returns it. */
function affected(result: unknown): number {
  return (result as [{ affectedRows: number }])[0].affectedRows;
}

/**
 * Takes the lease on `job` for `durationMs` when it is free or lapsed.
 * @param durationMs how long it holds without renewal (milliseconds, at least 1)
 * @returns the held lease, or the current holder when another run holds it
 */
export async function takeLease(
  db: ConnectorQueryable, job: string, durationMs: number,
): Promise<{ taken: true; lease: HeldLease } | { taken: false; holder: LeaseHolder }> {
  const owner = randomUUID();
  // The job's row, once: racing first takers may deadlock on the insert; the runner runs the loser's again.
  await runStatement(() => db.insert(serviceJobLease).values({ name: job }).onDuplicateKeyUpdate({ set: { name: sql`${serviceJobLease.name}` } }));
  const result = await runStatement(() => db.update(serviceJobLease)
    .set({ owner, acquiredAt: sql`UTC_TIMESTAMP(3)`, expiresAt: sql`UTC_TIMESTAMP(3) + INTERVAL ${Math.max(1, Math.round(durationMs)) * 1000} MICROSECOND` })
    .where(and(eq(serviceJobLease.name, job), sql`(${serviceJobLease.owner} IS NULL OR ${serviceJobLease.expiresAt} <= UTC_TIMESTAMP(3))`)));
  if (affected(result) === 1) return { taken: true, lease: { job, owner } };
  const [row] = await db.select().from(serviceJobLease).where(eq(serviceJobLease.name, job));
  return { taken: false, holder: { owner: row?.owner ?? "", expiresAt: row?.expiresAt ?? new Date(0) } };
}

/**
 * Moves the lease's expiry to `durationMs` from now (database clock).
 * @returns false when this holder no longer holds it (it lapsed and another run took it)
 */
export async function renewLease(db: ConnectorQueryable, lease: HeldLease, durationMs: number): Promise<boolean> {
  const result = await runStatement(() => db.update(serviceJobLease)
    .set({ expiresAt: sql`UTC_TIMESTAMP(3) + INTERVAL ${Math.max(1, Math.round(durationMs)) * 1000} MICROSECOND` })
    .where(and(eq(serviceJobLease.name, lease.job), eq(serviceJobLease.owner, lease.owner))));
  return affected(result) === 1;
}

/** Frees the lease if this holder still holds it (a lapsed one taken by another run stays theirs). */
export async function releaseLease(db: ConnectorQueryable, lease: HeldLease): Promise<void> {
  await runStatement(() => db.update(serviceJobLease).set({ owner: null, expiresAt: null, acquiredAt: null })
    .where(and(eq(serviceJobLease.name, lease.job), eq(serviceJobLease.owner, lease.owner))));
}

/** First pause of releaseLeaseWhenBack between attempts; it doubles up to RELEASE_MAX_PAUSE_MS. */
const RELEASE_FIRST_PAUSE_MS = 100;
/** Longest pause of releaseLeaseWhenBack between attempts. */
const RELEASE_MAX_PAUSE_MS = 2_000;

/** Optional settings of releaseLeaseWhenBack. */
export interface ReleaseWhenBackOptions {
  /**
   * ends the retrying at once (shutdown): an attempt under way finishes, no new one starts, and
   * the lease is left to lapse by itself (`abandoned`); one attempt is still made when it is
   * already aborted on entry
   */
  signal?: AbortSignal;
  /** told once per failed attempt, with the database's error */
  onRetry?: (err: unknown) => void;
}

/**
 * releaseLease, tried again while the database is unavailable (isDatabaseUnavailable: it is
 * restarting, or the network to it is down), with back-off from 100 ms doubling up to 2 s: a run
 * that stopped because its database went away frees its lease once the database is back, and the
 * next run can start at once. Gives up at `deadline`, when the lease lapses by itself anyway
 * (waiting longer would free nothing sooner), or at once when `options.signal` aborts (the process
 * is shutting down and must not wait for the database; the lease lapses by itself).
 * @param deadline when the lease lapses unless renewed, epoch milliseconds on this process's clock
 *   (the time of the last take or renewal plus its duration)
 * @returns `released` (also when another run holds it by now); `lapsed` when the deadline passed
 *   with the database still unavailable; `abandoned` when the signal ended the retrying first
 * @throws at once, an error other than the database being unavailable (a statement the database refused)
 */
export async function releaseLeaseWhenBack(
  db: ConnectorQueryable, lease: HeldLease, deadline: number, options: ReleaseWhenBackOptions = {},
): Promise<"released" | "lapsed" | "abandoned"> {
  const { signal } = options;
  for (let pause = RELEASE_FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, RELEASE_MAX_PAUSE_MS)) {
    try {
      await releaseLease(db, lease);
      return "released";
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      options.onRetry?.(err);
      if (signal?.aborted) return "abandoned";
      const left = deadline - Date.now();
      if (left <= 0) return "lapsed";
      await pauseUnlessAborted(Math.min(pause, left), signal);
      if (signal?.aborted) return "abandoned";
    }
  }
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function pauseUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
