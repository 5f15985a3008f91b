/**
 * The outbox's depth for `GET /metrics` (metrics/core-metrics.ts): read from the table when
 * Prometheus scrapes, so every core-api process reports the same shared figures (aggregated over
 * worker processes by their `max`, never summed).
 * - `outbox_deliveries{status="pending|failed"}`: rows waiting (or being sent) and rows kept
 *   after their last attempt;
 * - `outbox_oldest_pending_age_seconds`: how long the oldest pending delivery has waited (0 when
 *   none): a receiver that is down, or workers that fall behind, show here first.
 */
import type { ScrapedGauge } from "@service/shared/node";
import type { CoreDb } from "../db/client.ts";
import { OUTBOX_STATUSES, outboxDepth } from "./outbox-repository.ts";

/**
 * The outbox gauges.
 * @param database the database a scrape reads on, asked once per scrape: a handle with a deadline
 *   (metrics/core-metrics.ts), so that a frozen database fails the scrape instead of hanging it
 * @param clock the time the age is measured at (default now)
 */
export function outboxGauges(database: () => CoreDb, clock: () => Date = () => new Date()): ScrapedGauge[] {
  // One query per scrape serves both gauges: the first read caches it for the second.
  let pending: ReturnType<typeof outboxDepth> | null = null;
  const depth = () => {
    pending ??= outboxDepth(database()).finally(() => queueMicrotask(() => (pending = null)));
    return pending;
  };
  return [
    {
      name: "outbox_deliveries",
      help: "Outbox deliveries by status: pending (waiting or being sent) and failed (kept after the last attempt).",
      labelNames: ["status"],
      aggregator: "max",
      read: async () => {
        const { byStatus } = await depth();
        return OUTBOX_STATUSES.map((status) => ({ labels: { status }, value: byStatus[status] }));
      },
    },
    {
      name: "outbox_oldest_pending_age_seconds",
      help: "Seconds the oldest pending outbox delivery has waited; 0 when none is pending.",
      aggregator: "max",
      read: async () => {
        const { oldestPending } = await depth();
        return [{ value: oldestPending ? Math.max(0, (clock().getTime() - oldestPending.getTime()) / 1000) : 0 }];
      },
    },
  ];
}
