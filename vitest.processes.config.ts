import { defineConfig } from "vitest/config";
import { PROCESS_SUITES } from "./vitest.config.ts";

/**
 * The process suites (`npm run test:processes`; not part of `npm test`, CI runs them after it):
 * `npm start` and every entry point as real processes, stopped by signals; the services killed
 * or the database cut in the middle of a sync or an outbox delivery, then restarted. Against the
 * same database server as `npm test` (DATABASE_URL), on throwaway databases and free ports. Two
 * files at a time: each mostly waits for processes to start and stop.
 */
export default defineConfig({
  test: {
    include: PROCESS_SUITES,
    globalSetup: ["test/helpers/test-run-databases.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
