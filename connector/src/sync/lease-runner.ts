/**
 * Runs a piece of work under a job lease (job-lease.ts): one run at a time across every connector
 * instance. The lease is taken first (held by another run: nothing runs), renewed by a heartbeat
 * every third of its duration while the work goes on, and freed when the work ends, however it
 * ends. The work gets a stop signal that aborts when the caller's signal does (`aborted`) or when a
 * renewal finds the lease taken by another run (`lease_lost`: this run paused longer than the
 * lease); it is expected to stop starting new things then.
 *
 * Freeing survives the database going away (the reason a run usually ends early):
 * releaseLeaseWhenBack tries again until the database is back or the lease lapses by itself, and
 * the caller's signal (a shutdown) ends that waiting at once, leaving the lease to lapse.
 */
import { errorChain } from "@service/shared/node";
import type { Logger } from "../logger.ts";
import type { ConnectorDb } from "../db/client.ts";
import { releaseLeaseWhenBack, renewLease, takeLease, type HeldLease, type LeaseHolder } from "./job-lease.ts";

/** Why the work was told to stop, or null when it was not. */
export type StopReason = "aborted" | "lease_lost" | null;

/** How runUnderLease ended. */
export type LeaseRun<T> =
  | { ran: false; holder: LeaseHolder }
  | { ran: true; value: T; stopped: StopReason };

/** What runUnderLease needs. */
export interface LeaseRunOptions {
  db: ConnectorDb;
  /** the lease's job name (service_job_lease.name) */
  job: string;
  /** how long the lease holds without renewal, milliseconds */
  leaseMs: number;
  /** false: no lease at all (a dry run writes nothing), the work still gets the stop signal */
  lease: boolean;
  /** the caller's stop (a shutdown) */
  signal?: AbortSignal;
  logger?: Logger;
}

/** The driver's own message under drizzle's wrapper (whose message names the whole statement), on one line. */
export function driverReason(err: unknown): string {
  const e = errorChain(err).at(-1);
  const message = typeof e?.message === "string" && e.message ? e.message : String(err);
  const code = typeof e?.code === "string" && !message.includes(e.code) ? `${e.code}: ` : "";
  return `${code}${message}`.replace(/\s+/g, " ").trim();
}

/**
 * Runs `work` holding the lease `options.job` (module comment).
 * @param work gets the stop signal (its reason is the StopReason)
 * @returns `{ ran: false, holder }` when another run holds the lease (work never started), else
 *   work's value and whether it was told to stop
 * @throws what `work` throws (after the lease is freed or left to lapse), and the database's
 *   errors of taking the lease
 */
export async function runUnderLease<T>(options: LeaseRunOptions, work: (stop: AbortSignal) => Promise<T>): Promise<LeaseRun<T>> {
  const stop = new AbortController();
  const onAbort = () => stop.abort("aborted");
  const { signal } = options;
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) stop.abort("aborted");
  try {
    if (!options.lease) return { ran: true, value: await work(stop.signal), stopped: stopReason(stop.signal) };
    const asked = Date.now();
    const taken = await takeLease(options.db, options.job, options.leaseMs);
    if (!taken.taken) return { ran: false, holder: taken.holder };
    const heartbeat = startHeartbeat(options, taken.lease, asked + options.leaseMs, stop);
    try {
      return { ran: true, value: await work(stop.signal), stopped: stopReason(stop.signal) };
    } finally {
      heartbeat.stop();
      await release(options, taken.lease, heartbeat.leaseEnd());
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

const stopReason = (signal: AbortSignal): StopReason => (signal.aborted ? (signal.reason === "lease_lost" ? "lease_lost" : "aborted") : null);

/**
 * Renews `lease` every third of its duration; a renewal that finds another holder aborts `stop`
 * with `lease_lost`, one the database fails is logged and tried again at the next beat.
 * @param leaseEnd when the lease lapses unless renewed (this process's clock, a little after the database's)
 */
function startHeartbeat(options: LeaseRunOptions, lease: HeldLease, leaseEnd: number, stop: AbortController) {
  let end = leaseEnd;
  const timer = setInterval(() => {
    const renewing = Date.now();
    renewLease(options.db, lease, options.leaseMs).then(
      (ok) => {
        if (ok) end = renewing + options.leaseMs;
        else stop.abort("lease_lost");
      },
      (err: unknown) => options.logger?.warn({ err: driverReason(err) }, `${options.job}: the lease could not be renewed`),
    );
  }, Math.max(50, Math.floor(options.leaseMs / 3)));
  timer.unref();
  return { stop: () => clearInterval(timer), leaseEnd: () => end };
}

/** Frees the lease, waiting for the database while it is away (until the lease lapses, or the caller's signal ends the wait). */
async function release(options: LeaseRunOptions, lease: HeldLease, leaseEnd: number): Promise<void> {
  const { logger, job } = options;
  let told = false;
  const released = await releaseLeaseWhenBack(options.db, lease, leaseEnd, {
    signal: options.signal,
    onRetry: (err) => {
      if (!told) logger?.warn({ err: driverReason(err) }, `${job}: the lease cannot be freed yet; trying again while it holds`);
      told = true;
    },
  }).catch((err: unknown) => {
    logger?.warn({ err: driverReason(err) }, `${job}: the lease could not be freed; it lapses by itself`);
    return "failed";
  });
  if (released === "lapsed") logger?.warn({}, `${job}: the database stayed unavailable until the lease lapsed`);
  if (released === "abandoned") logger?.warn({}, `${job}: stopped while the database was unavailable; the lease lapses by itself`);
}
