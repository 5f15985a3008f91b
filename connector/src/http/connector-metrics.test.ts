/**
 * GET /metrics of the connector: request counts and durations by the full matched route pattern
 * (never the raw path with ids or emails), pool use, and the METRICS_TOKEN guard.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { BODY_LIMIT_BYTES } from "../config.ts";
import { startHarness, type Harness } from "../test-support/harness.ts";
import { METRICS_PATH, UNMATCHED_ROUTE } from "./connector-metrics.ts";
import { metricSample as sample } from "../../../test/helpers/metric-sample.ts";

const PREFIX = "/rest/V1/service/customer";
let h: Harness;
beforeAll(async () => {
  h = await startHarness("webshop_metrics");
});
afterAll(() => h?.close());


async function metrics(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}${METRICS_PATH}`, { headers });
}

describe("GET /metrics", () => {
  it("counts requests by the full route pattern and status, errors included, never by raw path", async () => {
    for (const id of [9101, 9102]) expect((await h.call("GET", `${PREFIX}/user_info/${id}`)).status).toBe(404);
    expect((await h.call("GET", `${PREFIX}/user_info_by_email/secret.person@example.com`)).status).toBe(404);
    expect((await h.call("POST", `${PREFIX}/update`, {})).status).toBe(400);
    expect((await h.call("POST", `${PREFIX}/update`, undefined, { raw: "{not json" })).status).toBe(400); // refused by the body parser, before routing
    expect((await h.call("GET", `${PREFIX}/user_info/9103`, undefined, { token: null })).status).toBe(401);
    expect((await h.call("GET", "/nowhere/42")).status).toBe(404);

    const res = await metrics(h.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(sample(text, "http_requests_total", { method: "GET", route: `${PREFIX}/user_info/:customerId`, status: "404" })).toBe(2);
    expect(sample(text, "http_requests_total", { method: "GET", route: `${PREFIX}/user_info_by_email/:customerEmail`, status: "404" })).toBe(1);
    expect(sample(text, "http_requests_total", { method: "POST", route: `${PREFIX}/update`, status: "400" })).toBe(1);
    // refused before routing, or no route at all
    expect(sample(text, "http_requests_total", { method: "GET", route: UNMATCHED_ROUTE, status: "401" })).toBe(1);
    expect(sample(text, "http_requests_total", { method: "GET", route: UNMATCHED_ROUTE, status: "404" })).toBe(1);
    expect(sample(text, "http_requests_total", { method: "POST", route: UNMATCHED_ROUTE, status: "400" })).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: `${PREFIX}/user_info/:customerId`, status: "404" })).toBe(2);
    // no label carries a raw path: ids, emails and unknown paths never appear in one (sample values
    // such as a duration sum may contain any digits, so only the labels are searched)
    const labels = [...text.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]).join("\n");
    expect(labels).toContain(`route="${PREFIX}/user_info/:customerId"`);
    expect(labels).not.toMatch(/910[123]|secret\.person|nowhere/);
  });

  it("reports the database pool's connections, limit and queue", async () => {
    const text = await (await metrics(h.url)).text();
    // one pool, labelled as the core API's main pool
    const total = sample(text, "db_pool_connections", { pool: "main", state: "total" });
    expect(total).toBeGreaterThanOrEqual(1);
    expect(sample(text, "db_pool_connections", { pool: "main", state: "free" })! + sample(text, "db_pool_connections", { pool: "main", state: "in_use" })!).toBe(total);
    expect(sample(text, "db_pool_connection_limit", { pool: "main" })).toBe(10);
    expect(sample(text, "db_pool_queued_requests", { pool: "main" })).toBe(0);
    expect(text.match(/^db_pool_connection_limit\{/gm)).toHaveLength(1);
  });

  describe("with METRICS_TOKEN set", () => {
    const token = "metrics-token-0123456789abcdef";
    let server: Server;
    let url = "";
    beforeAll(async () => {
      const app = createApp({ db: h.database.db, config: { bodyLimitBytes: BODY_LIMIT_BYTES, metricsToken: token } });
      server = await new Promise<Server>((resolve) => {
        const s = app.listen(0, "127.0.0.1", () => resolve(s));
      });
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("answers the bearer token, from a registry of its own", async () => {
      const res = await metrics(url, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain("# TYPE http_requests_total counter");
      expect(sample(text, "http_requests_total", { method: "GET", route: `${PREFIX}/user_info/:customerId`, status: "404" })).toBeUndefined();
    });

    it("refuses a missing or wrong token (the integration token included) with 401", async () => {
      const cases: Array<Record<string, string>> = [{}, { authorization: `Bearer ${token}x` }, { authorization: "Bearer test-integration-token-0123456789" }];
      for (const headers of cases) {
        const res = await metrics(url, headers);
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ message: "The consumer isn't authorized to access %resources.", parameters: { resources: "Service_Connector::metrics" } });
      }
      expect(cases).toHaveLength(3);
    });
  });
});
