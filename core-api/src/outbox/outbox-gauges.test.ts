/**
 * The outbox gauges when several core-api processes serve (WEB_CONCURRENCY): every process reads
 * the same table, so the aggregate over the processes (cluster-metrics.ts of @service/shared/node, as the
 * primary computes it) shows the table's figures once, while the requests and the pools, which
 * each process has of its own, are summed.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { aggregateSeries, type MetricJSON } from "@service/shared/node";
import type { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, TEST_SECRET_KEY, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { outbox } from "../db/schema.ts";
import { enqueue } from "./enqueue.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core?.close());

/** The value of the sample `name{labels}` (labels in their exposition order) in a text exposition. */
function sample(text: string, name: string, labels = ""): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ""} `));
  return line === undefined ? undefined : Number(line.split(" ").at(-1));
}

describe("the core API's series aggregated over two processes", () => {
  it("shows the outbox's depth once, and sums the requests and the pools", async () => {
    const box = await openSecretBox(TEST_SECRET_KEY);
    for (const n of [1, 2]) { // enqueued an hour ago
      await core.db.transaction((tx) => enqueue(tx, { chainId: core.chainId, kind: "test", eventType: "test_event", payload: { n } }, { secretBox: box, now: new Date(Date.now() - 3_600_000) }));
    }
    try {
      const registries: Registry[] = [];
      const app = () => createApp({
        db: core.db, config: loadCoreConfig({}),
        metricsExposition: (registry) => (registries.push(registry), () => registry.metrics()),
      });
      const [a, b] = [app(), app()];
      expect((await a.request("/health")).status).toBe(200);
      expect((await b.request("/health")).status).toBe(200);
      expect((await b.request("/health")).status).toBe(200);
      const alone = await registries[0]!.metrics();
      const text = await aggregateSeries(await Promise.all(registries.map(async (r) => (await r.getMetricsAsJSON()) as MetricJSON[])));

      expect(sample(alone, "outbox_deliveries", 'status="pending"')).toBe(2);
      expect(sample(text, "outbox_deliveries", 'status="pending"')).toBe(2);
      // about an hour (read a moment later than `alone`), not two
      const age = sample(alone, "outbox_oldest_pending_age_seconds")!;
      expect(age).toBeGreaterThan(3_500);
      expect(sample(text, "outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(age);
      expect(sample(text, "outbox_oldest_pending_age_seconds")).toBeLessThan(age + 60);
      expect(sample(text, "http_requests_total", 'method="GET",route="/health",status="200"')).toBe(3);
      // both apps share one database client here: its limit, counted once per process, is summed
      expect(sample(text, "db_pool_connection_limit", 'pool="main"')).toBe(2 * sample(alone, "db_pool_connection_limit", 'pool="main"')!);
    } finally {
      await core.db.delete(outbox);
    }
  });
});
