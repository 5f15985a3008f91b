/**
 * The scheduled reconcile (handbook, "Sync between the webshop and the platform": "node-cron in
 * the connector, SYNC_CRON, default every 5 minutes"): started with the connector, stopped on
 * shutdown. Every instance runs the schedule; the reconcile's lease lets one of them work at a
 * time and the others skip that tick.
 */
import cron from "node-cron";
import type { Logger } from "../logger.ts";
import { runReconcile, StoreUnavailableError, type ReconcileDeps, type ReconcileReport } from "./reconcile.ts";

/** SYNC_CRON's default: every 5 minutes. */
export const DEFAULT_SYNC_CRON = "*/5 * * * *";
/** The SYNC_CRON value that turns the schedule off. */
export const SYNC_CRON_OFF = "off";

/**
 * Whether `expression` is a SYNC_CRON value: `off`, or a cron expression node-cron accepts (five
 * fields, or six with seconds first), e.g. `*\/5 * * * *`.
 */
export function isSyncCronExpression(expression: string): boolean {
  return expression === SYNC_CRON_OFF || cron.validate(expression);
}

/** A running schedule. */
export interface SyncCron {
  /**
   * Stops the schedule; a pass under way is asked to stop (calls in flight finish; a lease it cannot
   * free while the database is unavailable is left to lapse) and awaited.
   */
  stop(): Promise<void>;
  /** Runs a pass now, as a tick would (tests, operators); resolves with its report. */
  runNow(): Promise<ReconcileReport | null>;
}

/**
 * Schedules the reconcile.
 * @param expression a cron expression (isSyncCronExpression; not `off`)
 * @param deps.logger gets one line per pass that did something, and every failure (a pass the
 *   database's going away stopped: the one warning runReconcile writes; the next tick runs as usual)
 * @param onReport called with each pass's report (tests)
 * @throws Error when the expression is not valid
 */
export function startSyncCron(
  deps: ReconcileDeps & { logger: Logger },
  expression: string,
  onReport?: (report: ReconcileReport) => void,
): SyncCron {
  if (!cron.validate(expression)) throw new Error(`SYNC_CRON: not a cron expression: ${expression}`);
  deps.logger.info({ job: "reconcile", cron: expression }, "reconcile schedule started");
  const stopping = new AbortController();
  let running: Promise<ReconcileReport | null> | null = null;

  const pass = (): Promise<ReconcileReport | null> => {
    if (stopping.signal.aborted) return Promise.resolve(null);
    // One pass at a time in this process; other instances are kept out by the lease.
    running ??= runReconcile(deps, { signal: stopping.signal })
      .then((report) => {
        onReport?.(report);
        return report;
      }, (err: Error) => {
        // The database going away is an operating condition, told once by runReconcile itself.
        if (!(err instanceof StoreUnavailableError)) deps.logger.error({ err: err.message }, "reconcile failed");
        return null;
      })
      .finally(() => { running = null; });
    return running;
  };

  // node-cron's own notes (a tick skipped while a pass runs, a tick missed by a busy process) go
  // to the connector's log, not to the console.
  const cronLog = {
    info: () => undefined,
    debug: () => undefined,
    warn: (message: string) => deps.logger.warn({ job: "reconcile" }, `schedule: ${message}`),
    error: (message: string | Error, err?: Error) =>
      deps.logger.error({ job: "reconcile", err: (err ?? message as Error).message ?? String(message) }, "schedule failed"),
  };
  const task = cron.schedule(expression, () => pass().then(() => undefined), { name: "reconcile", noOverlap: true, logger: cronLog });
  return {
    runNow: pass,
    async stop() {
      stopping.abort();
      await task.destroy();
      await running;
    },
  };
}
