/**
 * Event delivery latency (p50 / p99 from change to receiver), measured
 * against the RUNNING core API with a local receiver (scripts/lib/webhook-receiver.ts): a chain
 * of its own ("Event Bench Chain") with verify_phone_numbers and a phone_number_verification
 * webhook pointing at the receiver; each change is an alter-user giving a bench member a new
 * phone number, which enqueues an SMS in the outbox in the same transaction; the time measured
 * runs from sending the change to the signed event arriving at the receiver.
 *
 * Two rows: one change at a time (the worker is woken by the commit), and --concurrency members
 * changing at once (the worker's slots and the database under load). Every event must arrive once
 * with a valid signature, else the run fails.
 *
 * Runs as part of `npm run bench` (bench/run.ts) or alone: `npx tsx bench/event-latency.ts`
 * (--runs, --warmup, --concurrency, --core-api-url, --database-url, --db-name). The core API must
 * accept a webhook target on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE; npm start allows it).
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { openCoreDatabase, type CoreDb } from "../core-api/src/db/client.ts";
import { chains } from "../core-api/src/db/schema.ts";
import { createAdmin, grantAccess } from "../core-api/src/db/seed.ts";
import { hashPassword } from "../core-api/src/crypto/passwords.ts";
import { exitOnHelp } from "../scripts/lib/command-line.ts";
import { CoreApiClient } from "../scripts/lib/http-client.ts";
import { numberOption, parseFlags, serviceUrls, stringOption, type Flags } from "../scripts/lib/options.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../scripts/lib/webhook-receiver.ts";
import { ensureChain } from "./load.ts";
import { summarise, type Timing } from "./measure.ts";
import type { BenchSection } from "./section.ts";

const CHAIN_NAME = "Event Bench Chain";
const ADMIN_USERNAME = "event-bench@bench.example";
const RESULTS_PATH = fileURLToPath(new URL("./EVENT-LATENCY.md", import.meta.url));

/** The --help text of the event latency bench. */
export const EVENT_LATENCY_USAGE = `Usage: npx tsx bench/event-latency.ts [-- options]   (also part of npm run bench)

Measures p50 / p99 from a user change (alter-user with a new phone number) to the signed
phone_number_verification event at a local receiver, against the RUNNING core API (which must
allow webhook targets on 127.0.0.1: WEBHOOK_ALLOW_PRIVATE, npm start's default). Writes
bench/EVENT-LATENCY.md.

Options (environment in brackets):
  --runs <n>             timed changes per row (default 200)
  --warmup <n>           untimed changes first (default 20)
  --concurrency <n>      members changing at once in the second row (default 8)
  --core-api-url <url>   core API (CORE_API_URL, default http://127.0.0.1:8080)
  --database-url <url>   its database server (DATABASE_URL)
  --db-name <name>       its database (CORE_DB_NAME, default service_core)
  -h, --help             print this text and exit; nothing is measured`;

/** One measured row. */
export interface LatencyRow {
  label: string;
  concurrency: number;
  /** from sending the change to the event at the receiver */
  timing: Timing;
  /** from the change's answer (committed) to the event at the receiver: the outbox's own share */
  afterCommit: Timing;
}

/** What a run measured. */
export interface EventLatencyResult {
  date: Date;
  coreApiUrl: string;
  rows: LatencyRow[];
  /** repeated deliveries the receiver got (handled once each) */
  duplicates: number;
  /** the machine's 1-minute load average at the end (other work on it skews the figures) */
  loadAverage: number;
}

/**
 * Measures the event latency (see the module comment).
 * @throws Error when the core API refuses the receiver, or an event does not arrive within 10 s,
 *   or arrives unsigned
 */
export async function measureEventLatency(flags: Flags): Promise<EventLatencyResult> {
  const { coreApiUrl } = serviceUrls(flags);
  const database = openCoreDatabase(
    stringOption(flags, "database-url", "DATABASE_URL", "mysql://root@127.0.0.1:3306")!,
    stringOption(flags, "db-name", "CORE_DB_NAME", "service_core")!,
    { connectionLimit: 2 },
  );
  try {
    const result = await measureAgainst(database.db, coreApiUrl, latencyOptions(flags));
    await writeFile(RESULTS_PATH, resultsMarkdown(result));
    return result;
  } finally {
    await database.close();
  }
}

/** --runs, --warmup and --concurrency (a quick bench run takes fewer). */
function latencyOptions(flags: Flags, quick = false): { runs: number; warmup: number; concurrency: number } {
  return {
    runs: numberOption(flags, "runs", null, quick ? 20 : 200),
    warmup: numberOption(flags, "warmup", null, quick ? 2 : 20),
    concurrency: numberOption(flags, "concurrency", null, 8),
  };
}

/** `npm run bench` section "events": the same measurement against the core-api the bench starts. */
export const eventLatencySection: BenchSection = {
  name: "events",
  summary: "event delivery latency: a user change to the signed SMS event at a local receiver (p50 / p99)",
  flags: ["--concurrency <n>      members changing at once in the second events row (default 8; --runs counts changes per row)"],
  async run(ctx) {
    const core = await ctx.core();
    const r = await measureAgainst(ctx.db, core.url, latencyOptions(ctx.flags, ctx.settings.quick));
    printEventLatency(r);
    const worst = Math.max(...r.rows.map((x) => x.timing.p99));
    return {
      title: "Event delivery latency",
      markdown: resultsMarkdown(r).split("\n").slice(2).join("\n"),
      targets: [
        { label: "every event arrives once per change, signed", met: true, detail: `${r.rows.reduce((n, x) => n + x.timing.runs, 0)} events, ${r.duplicates} repeated deliveries (handled once)` },
        { label: "change -> receiver p99 below 1 s on an idle machine", met: worst < 1000, detail: r.rows.map((x) => `${x.label}: p50 ${x.timing.p50.toFixed(1)} ms, p99 ${x.timing.p99.toFixed(1)} ms`).join("; ") },
      ],
    };
  },
};

async function measureAgainst(db: CoreDb, coreApiUrl: string, options: { runs: number; warmup: number; concurrency: number }): Promise<EventLatencyResult> {
  const { runs, warmup, concurrency } = options;
  const secret = `whsec_${randomBytes(18).toString("base64url")}`;
  const receiver = await startWebhookReceiver(secret, "/bench-events");
  try {
    const { chainId } = await ensureChain(db, CHAIN_NAME);
    // Every change sends a code to one of a few members: the bench chain's send limits (users/
    // phone-verification-limits.ts) are lifted, or they would hold most of its SMS back.
    await db.update(chains).set({
      verifyPhoneNumbers: true,
      phoneVerificationSendIntervalSeconds: 0,
      phoneVerificationSendsPerUser: 1_000_000,
      phoneVerificationSendsPerNumber: 1_000_000,
      phoneVerificationSendsPerChain: 100_000_000,
    }).where(sql`id = ${chainId}`);
    const core = new CoreApiClient(coreApiUrl);
    const admin = await ensureAdmin(db, chainId);
    await core.login(admin.username, admin.password, chainId);
    const old = (await core.get("/resources/webhooks", { limit: 100 })).resources as Array<{ id: number }>;
    for (const w of old) await core.sendJson("DELETE", `/resources/webhook/${w.id}`);
    await core.sendJson("POST", "/resources/webhook", { event_type: "phone_number_verification", target_url: receiver.url, signing_secret: secret }).catch((err: Error) => {
      throw new Error(`${err.message}\n(the core API must allow a webhook target on 127.0.0.1: WEBHOOK_ALLOW_PRIVATE=true)`);
    });
    const members: number[] = [];
    for (let i = 0; i < Math.max(1, concurrency); i++) {
      const added = await core.sendForm("POST", "/internal/add-user", { chain_id: chainId, update_if_exists: true, username: `event-bench-${i}@bench.example`, country_code: "NL" });
      members.push(added.user.id);
    }
    let seq = 0;
    /** One change of member `userId`: ms until its event arrived, from sending it and from its answer. */
    const change = async (userId: number): Promise<[number, number]> => {
      const n = ++seq;
      // NL mobile numbers 06 1xxxxxxx to 06 5xxxxxxx (all valid): a new one for every change, so each is a phone change
      const phone = `+316${String(10_000_000 + ((userId * 7_919 + n) % 49_999_999)).padStart(8, "0")}`;
      const started = performance.now();
      await core.sendForm("PUT", "/internal/alter-user", { user_id: userId, phone_number: phone });
      const answered = performance.now();
      const event = await receiver.waitFor((e) => e.body?.data?.user_id === userId && e.body.data.phone_number === phone && e.at >= started, 10_000);
      if (!event.signatureValid) throw new Error(`event ${event.key} arrived with a signature that does not verify`);
      return [event.at - started, Math.max(0, event.at - answered)];
    };

    const rows: LatencyRow[] = [];
    for (let i = 0; i < warmup; i++) await change(members[0]!);
    const row = (label: string, n: number, samples: Array<[number, number]>): LatencyRow =>
      ({ label, concurrency: n, timing: summarise(samples.map((x) => x[0])), afterCommit: summarise(samples.map((x) => x[1])) });
    const one: Array<[number, number]> = [];
    for (let i = 0; i < runs; i++) one.push(await change(members[0]!));
    rows.push(row("one change at a time", 1, one));
    if (concurrency > 1) {
      const many: Array<[number, number]> = [];
      const perMember = Math.ceil(runs / concurrency);
      await Promise.all(members.map(async (userId) => {
        for (let i = 0; i < perMember; i++) many.push(await change(userId));
      }));
      rows.push(row(`${concurrency} members changing at once`, concurrency, many));
    }
    return { date: new Date(), coreApiUrl, rows, duplicates: receiver.duplicates, loadAverage: Math.round(os.loadavg()[0]! * 100) / 100 };
  } finally {
    await receiver.close();
  }
}

/** Prints the rows. */
export function printEventLatency(result: EventLatencyResult): void {
  console.log("\nevent delivery latency: change (alter-user) -> signed event at a local receiver");
  for (const r of result.rows) {
    console.log(`  ${r.label.padEnd(32)} ${String(r.timing.runs).padStart(5)} events  p50 ${r.timing.p50.toFixed(1)} ms  p99 ${r.timing.p99.toFixed(1)} ms  max ${r.timing.max.toFixed(1)} ms` +
      `  (after the commit: p50 ${r.afterCommit.p50.toFixed(1)} ms  p99 ${r.afterCommit.p99.toFixed(1)} ms)`);
  }
  console.log(`  repeated deliveries at the receiver: ${result.duplicates}; load average ${result.loadAverage}; written to bench/EVENT-LATENCY.md`);
}

function resultsMarkdown(r: EventLatencyResult): string {
  const lines = [
    "# Event delivery latency",
    "",
    `Measured ${r.date.toISOString()} by \`bench/event-latency.ts\` against ${r.coreApiUrl}: from sending a user change`,
    "(alter-user with a new phone number, which enqueues a `phone_number_verification` SMS in the outbox in the same",
    "transaction) to the signed event arriving at a local receiver (127.0.0.1). The core API's worker is woken by the commit;",
    "another process's worker would find it within OUTBOX_POLL_MS.",
    "",
    "| row | events | p50 ms | p99 ms | max ms | after the commit: p50 ms | p99 ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.rows.map((x) => `| ${x.label} | ${x.timing.runs} | ${x.timing.p50.toFixed(1)} | ${x.timing.p99.toFixed(1)} | ${x.timing.max.toFixed(1)} | ${x.afterCommit.p50.toFixed(1)} | ${x.afterCommit.p99.toFixed(1)} |`),
    "",
    `Repeated deliveries at the receiver: ${r.duplicates}. Load average (1 min) at the end: ${r.loadAverage} on ${os.cpus().length} cores.`,
    "",
  ];
  return lines.join("\n");
}

/** The bench's admin of the event chain: super user and assign (alter-user), a fresh password each run. */
async function ensureAdmin(db: CoreDb, chainId: number): Promise<{ username: string; password: string }> {
  const password = `bench-${crypto.randomUUID()}`;
  const [rows] = (await db.execute(sql`SELECT id FROM admin_users WHERE username = ${ADMIN_USERNAME}`)) as unknown as [Array<{ id: number }>];
  let adminId = rows[0]?.id;
  if (adminId === undefined) adminId = await createAdmin(db, { username: ADMIN_USERNAME, password, firstname: "Event", lastname: "Bench" });
  else await db.execute(sql`UPDATE admin_users SET password_hash = ${await hashPassword(password)}, active = 1 WHERE id = ${adminId}`);
  await grantAccess(db, Number(adminId), chainId, { super_user: true, read: true, write: true, assign: true });
  return { username: ADMIN_USERNAME, password };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  exitOnHelp(EVENT_LATENCY_USAGE);
  measureEventLatency(parseFlags()).then(printEventLatency).catch((err: unknown) => {
    console.error(`event latency bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
