import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["shared/src/**/*.test.ts", "core-api/src/**/*.test.ts", "connector/src/**/*.test.ts", "test/**/*.test.ts"],
    // one migrated template database per service per run; test databases are copies of it
    globalSetup: ["test/helpers/test-run-databases.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
