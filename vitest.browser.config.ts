import { defineConfig } from "vitest/config";

/**
 * The browser tests (`npm run test:browser`; not part of `npm test`): the /docs page in Debian's
 * headless chromium, driven by playwright-core, against services started by the test. One file
 * at a time: each starts `npm start` and a browser.
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
