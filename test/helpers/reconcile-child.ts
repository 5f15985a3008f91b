/**
 * A reconcile run in a process of its own, for the crash test (test/sync-lease-crash.test.ts):
 * one call at a time, a short lease, and a line `acknowledged <customer id>` each time the
 * platform accepted a customer and its last_hash is stored. The test kills it with SIGKILL
 * mid-run; CALL_DELAY_MS slows each call to the core API down (a slow network), so the run is
 * still under way when the kill comes. Environment: DATABASE_URL, SHOP_DB_NAME,
 * SERVICE_SECRET_KEY, LEASE_MS, CALL_DELAY_MS.
 */
import { openSecretBox } from "@service/shared/secret-box";
import { openConnectorDatabase } from "../../connector/src/db/client.ts";
import { runReconcile } from "../../connector/src/sync/reconcile.ts";

const database = openConnectorDatabase(process.env.DATABASE_URL!, process.env.SHOP_DB_NAME!);
const box = await openSecretBox(process.env.SERVICE_SECRET_KEY!);
const delayMs = Number(process.env.CALL_DELAY_MS ?? 0);
const slowFetch: typeof fetch = async (input, init) => {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  return fetch(input, init);
};
const report = await runReconcile({ db: database.db, box, fetch: slowFetch }, {
  concurrency: 1,
  batchSize: 4,
  leaseMs: Number(process.env.LEASE_MS),
  onSent: (item) => process.stdout.write(`acknowledged ${item.customerId}\n`),
});
process.stdout.write(`finished ${report.status}\n`);
await database.close();
