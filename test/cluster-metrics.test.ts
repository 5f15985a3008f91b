/**
 * GET /metrics with WEB_CONCURRENCY=2 (`npm start`, real processes on throwaway databases and free
 * ports): each scrape reaches one worker, yet every scrape shows the requests both workers
 * answered, each service only its own series, with the default Node metrics.
 */
import { get } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { scriptEnv, start } from "./helpers/processes.ts";

const dbNames: string[] = [];
afterAll(() => Promise.all(dbNames.map(dropDatabase)));

/** GET `url` on a connection of its own (the cluster's primary hands each new connection to the next worker). */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    }).on("error", reject);
  });
}

/** The samples of `name` in a Prometheus text exposition, with their labels. */
function samples(text: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  return text.split("\n").flatMap((line) => {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) return [];
    const labels = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    return [{ labels, value: Number(m[3]) }];
  });
}

/** http_requests_total summed over every method and status of `route`. */
function requestsOf(text: string, route: string): number {
  return samples(text, "http_requests_total").filter((s) => s.labels.route === route).reduce((sum, s) => sum + s.value, 0);
}

describe("GET /metrics with 2 worker processes", () => {
  it("every scrape shows the requests of both workers, each service its own series and the Node metrics", async () => {
    const core = throwawayDatabaseName("metrics_core");
    const shop = throwawayDatabaseName("metrics_shop");
    dbNames.push(core, shop);
    const npm = start("npm", ["start"], scriptEnv({
      DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: core, WEBSHOP_DB_NAME: shop, CORE_API_PORT: "0", CONNECTOR_PORT: "0",
      SERVICE_SECRET_KEY: "test-secret-key-of-at-least-32-characters", WEB_CONCURRENCY: "2", LOG_LEVEL: "info",
    }));
    try {
      const coreUrl = (await npm.waitFor(/core-api\s+(http:\/\/\S+)/, 90_000))[1]!;
      const connectorUrl = (await npm.waitFor(/connector\s+(http:\/\/\S+)/))[1]!;
      // different counts per service: a scrape that mixed the services' series would show it
      const N = { core: 7, connector: 4 };
      for (let i = 0; i < N.core; i++) expect((await getOnNewConnection(`${coreUrl}/health`)).status).toBe(200);
      for (let i = 0; i < N.connector; i++) expect((await getOnNewConnection(`${connectorUrl}/health`)).status).toBe(200);

      for (let i = 0; i < 6; i++) {
        const coreScrape = await getOnNewConnection(`${coreUrl}/metrics`);
        expect(coreScrape.status).toBe(200);
        expect(requestsOf(coreScrape.body, "/health"), `core-api scrape ${i}`).toBe(N.core);
        expect(samples(coreScrape.body, "outbox_deliveries").length).toBeGreaterThan(0);
        // two workers' pools (at least one connection each, for /health) summed; the outbox's depth not summed
        expect(samples(coreScrape.body, "db_pool_connections").find((s) => s.labels.pool === "main" && s.labels.state === "total")!.value).toBeGreaterThanOrEqual(2);
        expect(samples(coreScrape.body, "outbox_deliveries").every((s) => s.value === 0)).toBe(true);

        const connectorScrape = await getOnNewConnection(`${connectorUrl}/metrics`);
        expect(connectorScrape.status).toBe(200);
        expect(requestsOf(connectorScrape.body, "/health"), `connector scrape ${i}`).toBe(N.connector);
        expect(samples(connectorScrape.body, "outbox_deliveries")).toEqual([]); // core-api's series only in core-api's

        for (const body of [coreScrape.body, connectorScrape.body]) {
          // the default Node metrics, once per metric: the workers' CPU time summed, the version once
          expect(samples(body, "process_cpu_user_seconds_total")).toHaveLength(1);
          expect(samples(body, "process_cpu_user_seconds_total")[0]!.value).toBeGreaterThan(0);
          expect(samples(body, "nodejs_version_info")).toHaveLength(1);
          expect(body.match(/^# TYPE http_requests_total counter$/gm)).toHaveLength(1);
        }
      }

      // both workers answered /health (the request lines carry the answering process's pid), so no
      // one worker's counter holds N: a scrape shows N only as their sum, whichever worker it reached
      await new Promise((r) => setTimeout(r, 200));
      const answeredBy = (service: string) => new Set(
        npm.output().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { name?: string; msg?: string; pid?: number; route?: string })
          .filter((l) => l.name === service && l.msg === "request" && l.route === "/health").map((l) => l.pid),
      );
      expect(answeredBy("core-api").size).toBe(2);
      expect(answeredBy("connector").size).toBe(2);

      npm.child.kill("SIGTERM");
      expect((await npm.exited()).code).toBe(0);
    } finally {
      npm.child.kill("SIGKILL");
    }
  }, 120_000);
});
