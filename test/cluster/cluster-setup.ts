/**
 * Global setup of the cluster tests: the local Galera cluster must be up with every node synced
 * and the proxy routing (`npm run cluster -- status`); if it is not, `npm run cluster -- up`
 * brings it up (or repairs it) first.
 */
import { runScript, scriptEnv } from "../helpers/processes.ts";

export default async function ensureCluster(): Promise<void> {
  const status = await runScript("scripts/cluster.ts", ["status"], scriptEnv({}), 30_000);
  if (status.code === 0) return;
  const up = await runScript("scripts/cluster.ts", ["up"], scriptEnv({}), 600_000);
  if (up.code !== 0) throw new Error(`npm run cluster -- up failed:\n${up.stdout}${up.stderr}`);
}
