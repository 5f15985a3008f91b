import { defineConfig } from "vitest/config";
import { clusterUrl, NODES } from "./scripts/cluster/layout.ts";

/**
 * The cluster tests (`npm run test:cluster`; not part of `npm test`): on the local 3-node Galera
 * cluster of `npm run cluster` (brought up first if it is not), never mocked. The shared test
 * helpers make their throwaway databases on node 1 (DATABASE_URL below); each test then reaches
 * the other nodes, or the proxy, directly. One file at a time: the failover test kills a node.
 */
process.env.DATABASE_URL = clusterUrl(NODES[0]!.port);

export default defineConfig({
  test: {
    include: ["test/cluster/**/*.test.ts"],
    globalSetup: ["test/cluster/cluster-setup.ts", "test/helpers/test-run-databases.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
});
