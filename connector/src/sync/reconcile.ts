/**
 * The reconcile: webshop changes to the platform (handbook, "Sync between the webshop and the
 * platform"). Run by the cron of the connector (sync-cron.ts) and by `npm run sync`
 * (scripts/sync.ts). Its parts:
 * - lease-runner.ts: one run at a time across all connector instances (the `reconcile` lease,
 *   renewed while the run works; a run that loses it stops);
 * - chain-pass.ts: per linked chain (platform-link.ts), the customers whose user info hash differs
 *   from their `last_hash`, sent at most `concurrency` at a time; what a failure ends (a
 *   customer, a chain or the run);
 * - conflict-policy.ts: one customer sent with "the newer change wins", its outcome stored.
 *
 * A customer never ends the run, whatever the platform answers for it: it is reported and tried
 * again on the next pass. The shop's database going away mid-run (a restart, a lost network)
 * stops the run with a StoreUnavailableError (one line): what the platform acknowledged and was
 * stored stays, a transaction the restart rolled back is as if never made, and the next run sends
 * whatever is not stored. The lease is freed as soon as the database is back, so that next run
 * need not wait for it to lapse; a run stopped (its signal) meanwhile stops waiting at once and
 * leaves the lease to lapse.
 */
import { isDatabaseUnavailable } from "@service/shared/node";
import { reconcileChain } from "./chain-pass.ts";
import { driverReason, runUnderLease } from "./lease-runner.ts";
import { readPlatformLinks } from "./platform-link.ts";
import type { ReconcileDeps, ReconcileOptions, ReconcileReport } from "./reconcile-report.ts";

export type {
  ChainReport, ReconcileDeps, ReconcileOptions, ReconcileProgress, ReconcileReport, SendItem, SendReason,
} from "./reconcile-report.ts";

/** The lease's job name. */
export const RECONCILE_JOB = "reconcile";
/** Customers per page. */
export const DEFAULT_BATCH_SIZE = 2000;
/** add-user calls in flight at most. */
export const DEFAULT_CONCURRENCY = 8;
/** How long the lease holds without renewal; renewed every third of it. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * The shop's database became unavailable during a run (isDatabaseUnavailable: it restarted, is
 * unreachable or does not answer). The run stopped; customers the platform acknowledged before
 * are stored (their last_hash), and the next run goes on with the rest. `message` is one line
 * naming the driver's reason and how many customers were synced; `report` is the run's report up
 * to the failure.
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  readonly report: ReconcileReport;
  constructor(report: ReconcileReport, cause: unknown) {
    const sent = report.chains.reduce((n, c) => n + c.sent, 0);
    const pulled = report.chains.reduce((n, c) => n + c.pulled, 0);
    super(
      `the shop database became unavailable during the reconcile (${driverReason(cause)}): ` +
        `${sent} customer(s) sent and ${pulled} taken from the platform before it are kept; the next run goes on where this one stopped`,
      { cause },
    );
    this.report = report;
  }
}

/**
 * Runs one reconcile pass over every linked chain (module comment).
 * @returns the report: a customer that fails (refused by the platform, answered with something that
 *   is no valid add-user answer, not taken by the shop) and a chain that stops (the platform
 *   unavailable, the chain's token refused) are in it, never thrown
 * @throws StoreUnavailableError when the shop's database became unavailable (the lease is freed
 *   first once the database is back, or left to lapse); PlatformLinkError when a chain's stored
 *   token does not open (before anything is sent); the database's other errors, and unforeseen
 *   ones, as they are (after the calls in flight finished)
 */
export async function runReconcile(deps: ReconcileDeps, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const dryRun = options.dryRun === true;
  const report: ReconcileReport = { status: "done", dryRun, chains: [], wouldSend: [], failures: [] };
  let ran: boolean;
  try {
    ran = await runPass(deps, options, report);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    const failure = new StoreUnavailableError(report, err);
    deps.logger?.warn({ err: failure.message }, "reconcile stopped");
    throw failure;
  }
  if (!ran) return report;
  deps.logger?.info({
    status: report.status, dryRun,
    chains: report.chains.map((c) => ({ chain_id: c.chainId, scanned: c.scanned, due: c.due, sent: c.sent, pulled: c.pulled, failed: c.failed, stopped: c.stopped })),
  }, "reconcile finished");
  return report;
}

/**
 * runReconcile's pass, filling `report` as it goes (runReconcile reports it when the database fails).
 * @returns false when nothing ran: no chain is linked, or another run holds the lease
 */
async function runPass(deps: ReconcileDeps, options: ReconcileOptions, report: ReconcileReport): Promise<boolean> {
  const links = await readPlatformLinks(deps.db, deps.box, options.chainIds);
  if (links.length === 0) return false;
  const passOptions = {
    ...options,
    dryRun: report.dryRun,
    batchSize: Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE),
    concurrency: Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY),
  };
  const run = await runUnderLease({
    db: deps.db, job: RECONCILE_JOB, leaseMs: Math.max(100, options.leaseMs ?? DEFAULT_LEASE_MS),
    lease: !report.dryRun, signal: options.signal, logger: deps.logger,
  }, async (stop) => {
    for (const link of links) {
      if (stop.aborted) break;
      await reconcileChain(deps, link, passOptions, stop, report);
    }
  });
  if (!run.ran) {
    report.status = "lease_held";
    report.holder = run.holder;
    return false;
  }
  if (run.stopped) report.status = run.stopped;
  return true;
}
