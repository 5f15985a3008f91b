/**
 * GET /metrics of the core API: request counts and durations by matched route (never the raw
 * path), pool use, one registry per app, and the METRICS_TOKEN guard.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { METRICS_PATH, UNMATCHED_ROUTE } from "./core-metrics.ts";
import { metricSample as sample } from "../../../test/helpers/metric-sample.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core?.close());


describe("GET /metrics", () => {
  it("counts requests by method, route pattern and status, never by raw path", async () => {
    const admin = await core.admin({ super_user: true });
    for (const id of [101, 102, 103]) {
      const res = await core.request(`/resources/business/${id}`, { headers: admin.headers });
      expect(res.status).toBe(404);
    }
    expect((await core.request("/no/such/path/77")).status).toBe(404);

    const res = await core.request(METRICS_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(sample(text, "http_requests_total", { method: "GET", route: "/resources/business/:id", status: "404" })).toBe(3);
    expect(sample(text, "http_requests_total", { method: "GET", route: UNMATCHED_ROUTE, status: "404" })).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: "/resources/business/:id", status: "404" })).toBe(3);
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/resources/business/:id",status="404"}');
    expect(text).toMatch(/http_requests_total\{method="POST",route="\/auth\/login",status="200"\} 1/);
    // no series carries a raw id or a made-up path
    expect(text).not.toMatch(/\/10[123]\b|\/no\/such/);
  });

  it("reports the database pool by its pool label, main (the drizzle client's): a connection held shows in use", async () => {
    await core.request("/resources/business/1"); // touches the main pool
    const scrape = async () => {
      const text = await (await core.request(METRICS_PATH)).text();
      // no sample without a pool label
      expect(text).not.toMatch(/^db_pool_\w+(\{state="\w+"\})? /m);
      return {
        total: sample(text, "db_pool_connections", { pool: "main", state: "total" }),
        free: sample(text, "db_pool_connections", { pool: "main", state: "free" }),
        inUse: sample(text, "db_pool_connections", { pool: "main", state: "in_use" }),
        limit: sample(text, "db_pool_connection_limit", { pool: "main" }),
        queued: sample(text, "db_pool_queued_requests", { pool: "main" }),
      };
    };
    const before = await scrape();
    expect(before.free! + before.inUse!).toBe(before.total);
    expect(before.limit).toBe(10);
    expect(before.queued).toBe(0);
    expect(before.total).toBeGreaterThanOrEqual(1);

    const heldMain = await core.db.$client.getConnection();
    try {
      expect((await scrape()).inUse).toBe(before.inUse! + 1);
    } finally {
      heldMain.release();
    }
    expect((await scrape()).inUse).toBe(before.inUse);
  });

  it("keeps one registry per app: a second app starts from zero", async () => {
    const other = createApp({ db: core.db, config: loadCoreConfig({}) });
    const text = await (await other.request(METRICS_PATH)).text();
    expect(sample(text, "http_requests_total", { method: "GET", route: "/resources/business/:id", status: "404" })).toBeUndefined();
    expect(text).toContain("# TYPE http_requests_total counter");
  });

  describe("with METRICS_TOKEN set", () => {
    const token = "metrics-token-0123456789abcdef";
    const app = () => createApp({ db: core.db, config: loadCoreConfig({ METRICS_TOKEN: token }) });

    it("answers the bearer token", async () => {
      const res = await app().request(METRICS_PATH, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("# TYPE http_request_duration_seconds histogram");
    });

    it("refuses a missing or wrong token with 401 and error 6, without figures", async () => {
      const cases: Array<Record<string, string>> = [{}, { authorization: `Bearer ${token}x` }, { authorization: token }];
      for (const headers of cases) {
        const res = await app().request(METRICS_PATH, { headers });
        expect(res.status).toBe(401);
        const body = await res.json();
        expect(body.error).toMatchObject({ code: 6, name: "no_valid_session" });
      }
      expect(cases).toHaveLength(3);
    });
  });
});
