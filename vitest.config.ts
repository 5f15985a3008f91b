import { defineConfig } from "vitest/config";

/**
 * Files that change what every later file in the same worker would see, so they keep a fresh
 * module registry and globals of their own: module mocks (vi.mock), fake timers, and msw, whose
 * `HttpResponse.error()` is built on the global `Response` that @hono/node-server replaces when a
 * file before it started a server.
 */
const ISOLATED = [
  "core-api/src/internal/delete-campaign.webhooks.test.ts",
  "core-api/src/outbox/outbox-worker.test.ts",
  "core-api/src/resources/event-delivery.test.ts",
  "core-api/src/auth/jwt.test.ts",
  "core-api/src/auth/jwt.keys.test.ts",
  "core-api/src/internal/verify-phone-number.test.ts",
  "shared/src/node/db-timeouts.test.ts",
];

/**
 * The cluster tests run on the local Galera cluster, by `npm run test:cluster`
 * (vitest.cluster.config.ts); the browser tests in headless chromium, by `npm run test:browser`
 * (vitest.browser.config.ts).
 */
const CLUSTER = ["test/cluster/**", "test/browser/**"];

/**
 * The suites that run the services as processes of their own and stop, kill or restart them (or
 * the database under them), by `npm run test:processes` (vitest.processes.config.ts), which CI
 * runs after `npm test`: each waits on process start-up, signals and retries, which made up about
 * a third of `npm test`'s time.
 */
export const PROCESS_SUITES = [
  "test/start-stop.test.ts",
  "test/entry-points.test.ts",
  "test/cluster-metrics.test.ts",
  "test/outbox-crash.test.ts",
  "test/sync-restart.test.ts",
  "test/sync-database-restart.test.ts",
  "test/sync-lease-crash.test.ts",
];

const ALL = ["shared/src/**/*.test.ts", "core-api/src/**/*.test.ts", "connector/src/**/*.test.ts", "test/**/*.test.ts"];

export default defineConfig({
  test: {
    // one migrated template database per service per run; test databases are copies of it
    globalSetup: ["test/helpers/test-run-databases.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The tests of a file run in a shuffled order (not the order they are written in), fixed by the
    // seed so that a run can be repeated: a test that passes only after another one has run fails.
    sequence: { shuffle: { files: false, tests: true }, seed: 20261128 },
    // Two files at a time even on two cores (vitest's default there is one): a file mostly waits
    // for the database server and the services it started.
    maxWorkers: 2,
    projects: [
      // Most files share their worker's modules (each file's own state lives in its databases and
      // servers): importing the app once per worker instead of once per file halves the run.
      { extends: true, test: { name: "shared-modules", include: ALL, exclude: [...ISOLATED, ...CLUSTER, ...PROCESS_SUITES], isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED, isolate: true } },
    ],
  },
});
