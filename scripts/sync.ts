/**
 * `npm run sync`: one reconcile pass now (connector/src/sync/reconcile.ts), the same the
 * connector's schedule (SYNC_CRON) runs, with a progress bar. Takes the same lease, so it never
 * runs alongside a scheduled pass of any connector instance.
 * Exit status: 0 every due customer was synced; 1 some failed or a chain stopped (listed), or the
 * database became unavailable mid-run (one line on stderr; the next run goes on where this one
 * stopped); 2 bad command line or configuration; 3 another run holds the lease (nothing was done).
 */
import cliProgress from "cli-progress";
import { openSecretBox } from "@service/shared/secret-box";
import { SECRET_KEY_MISSING } from "@service/shared/node";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { runReconcile, type ReconcileProgress, type ReconcileReport } from "../connector/src/sync/reconcile.ts";
import { parseCommandLine } from "./lib/command-line.ts";
import { withSecretKeyFile } from "./lib/secret-key-file.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm run sync [-- [--full] [--dry-run] [--chain-id <id>]...]

Runs one reconcile pass: every customer of a linked chain's websites (npm run admin --
link-platform) whose user info changed in the shop since it was last synced is sent to the
platform's add-user, and so is every customer registered since the chain was linked. Customers
are compared by their user info hash with last_hash; equal ones send nothing. Where the platform
changed a member later than the shop changed its customer, the platform's version is taken into
the shop instead. Another run of any connector instance (the SYNC_CRON schedule) keeps it waiting:
it then says so and exits 3.

Options:
  --full           also send customers never synced that existed before the chain was linked
  --dry-run        list the customers that would be sent (chain, customer id, email, why);
                   send and write nothing
  --chain-id <id>  only this chain (repeatable; default every linked chain)
  -h, --help       print this text and exit; nothing is touched

Environment: DATABASE_URL, WEBSHOP_DB_NAME, SERVICE_SECRET_KEY, DATABASE_WAIT_SECONDS.
Exit status: 0 synced, 1 some customers failed, a chain stopped or the database became
unavailable (the next run goes on where this one stopped), 2 bad command line or configuration,
3 another run holds the lease.`;

const EXIT_FAILURES = 1;
const EXIT_USAGE = 2;
const EXIT_LEASE_HELD = 3;

async function main(): Promise<number> {
  const { values } = parseCommandLine(USAGE, {
    full: { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
    "chain-id": { type: "string", multiple: true },
  });
  const chainIds = (values["chain-id"] as string[] | undefined)?.map(Number);
  if (chainIds?.some((id) => !Number.isInteger(id) || id <= 0)) {
    console.error("--chain-id must be a positive integer (see --help)");
    return EXIT_USAGE;
  }
  const parsed = parseConnectorConfig(withSecretKeyFile(process.env));
  if (!parsed.ok) {
    for (const line of parsed.problems) console.error(line);
    return EXIT_USAGE;
  }
  const config = parsed.config;
  if (!config.secretKey) {
    console.error(SECRET_KEY_MISSING);
    return EXIT_USAGE;
  }
  const box = await openSecretBox(config.secretKey);
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs, onWait: (line) => console.error(line) });
  const database = openConnectorDatabase(config.databaseUrl, config.dbName);

  // Ctrl-C: calls in flight finish, nothing new starts, the lease is released.
  const stop = new AbortController();
  process.once("SIGINT", () => stop.abort());
  process.once("SIGTERM", () => stop.abort());

  const dryRun = values["dry-run"] === true;
  const progress = progressBars();
  try {
    const report = await runReconcile({ db: database.db, box }, {
      full: values.full === true, dryRun, chainIds, signal: stop.signal, onProgress: progress.onProgress,
    });
    progress.stop();
    return printReport(report, dryRun);
  } finally {
    progress.stop();
    await database.close();
  }
}

/** One progress bar per chain on a terminal; elsewhere (logs, pipes) none: only the summary lines. */
function progressBars(): { onProgress: (p: ReconcileProgress) => void; stop: () => void } {
  const bars = new Map<number, cliProgress.SingleBar>();
  const multi = process.stderr.isTTY
    ? new cliProgress.MultiBar({
      format: "  chain {chain} {bar} {percentage}% | {value}/{total} customers | sent {sent} | from platform {pulled} | failed {failed}",
      stream: process.stderr,
      hideCursor: true,
    }, cliProgress.Presets.shades_classic)
    : null;
  const onProgress = (p: ReconcileProgress) => {
    if (!multi) return;
    let bar = bars.get(p.chainId);
    if (!bar) {
      bar = multi.create(p.total, 0, { chain: p.chainId, sent: 0, pulled: 0, failed: 0 });
      bars.set(p.chainId, bar);
    }
    bar.setTotal(Math.max(p.total, p.scanned));
    bar.update(p.scanned, { sent: p.sent, pulled: p.pulled, failed: p.failed });
  };
  return { onProgress, stop: () => multi?.stop() };
}

/** Prints the run's summary (or the dry run's list). @returns the exit status */
function printReport(report: ReconcileReport, dryRun: boolean): number {
  if (report.status === "lease_held") {
    console.error(`another run holds the reconcile lease (until ${report.holder!.expiresAt.toISOString()} unless renewed): nothing done`);
    return EXIT_LEASE_HELD;
  }
  if (report.chains.length === 0) {
    console.log("no chain is linked to the platform (npm run admin -- link-platform): nothing to do");
    return 0;
  }
  if (dryRun) {
    for (const item of report.wouldSend) console.log(`${item.chainId}\t${item.customerId}\t${item.email}\t${item.reason}`);
    const due = report.chains.reduce((n, c) => n + c.due, 0);
    console.log(`dry run: ${due} customer(s) would be sent${due > report.wouldSend.length ? ` (first ${report.wouldSend.length} listed)` : ""}; nothing was sent or written`);
    return 0;
  }
  for (const c of report.chains) {
    console.log(`chain ${c.chainId}: ${c.scanned} customers read, ${c.due} changed, ${c.sent} sent, ${c.pulled} taken from the platform, ${c.failed} failed`);
    if (c.stopped) console.log(`  stopped: ${c.stopped}`);
  }
  for (const f of report.failures) console.log(`  failed: chain ${f.chainId} customer ${f.customerId} (${f.email}): ${f.message}`);
  if (report.status !== "done") console.log(`run ${report.status === "aborted" ? "interrupted" : "stopped: its lease was lost"}; the next run goes on where it left off`);
  return report.failures.length > 0 || report.chains.some((c) => c.failed > 0 || c.stopped) || report.status !== "done" ? EXIT_FAILURES : 0;
}

main().then(
  (status) => process.exit(status),
  (err: Error) => {
    console.error(["DatabaseUnavailableError", "StoreUnavailableError", "PlatformLinkError"].includes(err.name) ? err.message : err.stack);
    process.exit(1);
  },
);
