/**
 * The outbox survives a crash (handbook, "Events"): real core-api processes
 * (core-api/src/main.node.ts) on a throwaway database and a real HTTP receiver on 127.0.0.1
 * (WEBHOOK_ALLOW_PRIVATE). Three signups enqueue SMS deliveries; the receiver holds the first
 * request open, so the worker is mid-delivery when its process is killed (SIGKILL: no shutdown at
 * all). A new process takes the deliveries once the dead worker's lease ends and delivers every
 * one: the receiver processes each idempotency key exactly once, every signature verifies, and the
 * codes still verify the numbers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verifySignature } from "@service/shared/webhook-signature";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { migrateCoreDatabase } from "../core-api/src/db/migrate.node.ts";
import { chains, outbox } from "../core-api/src/db/schema.ts";
import { createAdmin, createChain, grantAccess } from "../core-api/src/db/seed.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { scriptEnv, start, type Running } from "./helpers/processes.ts";

const SECRET = "whsec_crash_test_secret";
const SERVICE_SECRET_KEY = "test-secret-key-of-at-least-32-characters";

/** The receiver: every request seen, and how often each key was answered 200 (processed). */
const seen: Array<{ key: string; signatureValid: boolean; body: any }> = [];
const processed = new Map<string, number>();
/** while true, requests are held open and never answered */
let holding = true;

async function receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let text = "";
  for await (const chunk of req) text += chunk;
  const key = String(req.headers["idempotency-key"]);
  seen.push({ key, signatureValid: await verifySignature(String(req.headers["x-service-signature"]), text, SECRET), body: JSON.parse(text) });
  if (holding) return; // never answered: the sender is mid-delivery until its process dies
  processed.set(key, (processed.get(key) ?? 0) + 1);
  res.writeHead(200, { "content-type": "application/json" }).end("{}");
}

let receiver: Server;
let receiverUrl: string;
let dbName: string;
let database: CoreDatabase;
let chainId: number;
const username = "crash-admin@example.com";
const password = "crash-admin-password";
const running: Running[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => void receive(req, res));
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sms`;
  dbName = throwawayDatabaseName("crash");
  await migrateCoreDatabase(TEST_DATABASE_URL, dbName);
  database = openCoreDatabase(TEST_DATABASE_URL, dbName);
  chainId = await createChain(database.db, "Crash Chain");
  await database.db.update(chains).set({ verifyPhoneNumbers: true }).where(eq(chains.id, chainId));
  const adminId = await createAdmin(database.db, { username, password, firstname: "Crash", lastname: "Test" });
  await grantAccess(database.db, adminId, chainId, { super_user: true, read: true, write: true, assign: true });
}, 60_000);

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
  receiver.closeAllConnections();
  await new Promise<void>((r) => receiver.close(() => r()));
  await database.close();
  await dropDatabase(dbName);
});

/** A core-api process on the test database; resolves with its URL. */
async function coreApi(): Promise<{ process: Running; url: string }> {
  // node itself with tsx's loader: SIGKILL must hit the process that serves (the tsx command
  // serves from a child of its own, which would live on).
  const p = start(process.execPath, ["--import", "tsx", "core-api/src/main.node.ts"], scriptEnv({
    DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: dbName, CORE_API_PORT: "0", SERVICE_SECRET_KEY, LOG_LEVEL: "error",
    WEBHOOK_ALLOW_PRIVATE: "true", OUTBOX_POLL_MS: "50", OUTBOX_TIMEOUT_MS: "1000",
  }));
  running.push(p);
  return { process: p, url: (await p.waitFor(/core-api listening on (http:\/\/\S+)/, 60_000))[1]! };
}

async function json(url: string, init: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${init.method} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body.results;
}

const until = async (what: string, check: () => Promise<boolean> | boolean, limitMs = 20_000) => {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("a worker killed mid-delivery", () => {
  it("loses nothing: a restarted process delivers every SMS, each processed once, signed, and the codes verify", async () => {
    const first = await coreApi();
    const login = await json(`${first.url}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }) });
    const headers = {
      "content-type": "application/json",
      "X-Service-Session-User-ID": String(login.session_info.session_user_id),
      "X-Service-Session-Key": login.session_info.session_key,
      "X-Service-Chain-ID": String(chainId),
    };
    await json(`${first.url}/resources/webhook`, {
      method: "POST", headers, body: JSON.stringify({ event_type: "phone_number_verification", target_url: receiverUrl, signing_secret: SECRET, provider_settings: { sender: "Crash" } }),
    });
    const userIds: number[] = [];
    for (const [i, phone] of ["06 11111111", "06 22222222", "06 33333333"].entries()) {
      const added = await json(`${first.url}/internal/add-user`, {
        method: "POST", headers, body: JSON.stringify({ chain_id: chainId, username: `crash${i}@example.com`, country_code: "NL", phone_number: phone }),
      });
      userIds.push(added.user.id);
    }
    const owed = (await database.db.select().from(outbox)).map((r) => r.deliveryId).sort();
    expect(owed).toHaveLength(3);

    // Mid-delivery: the receiver holds the worker's first request open; then the process dies.
    await until("the first delivery to reach the receiver", () => seen.length > 0);
    first.process.child.kill("SIGKILL");
    await first.process.exited();
    expect(processed.size).toBe(0);
    const afterCrash = await database.db.select().from(outbox);
    expect(afterCrash.map((r) => r.deliveryId).sort()).toEqual(owed); // nothing lost, nothing marked delivered
    expect(afterCrash.some((r) => r.leaseToken !== null)).toBe(true); // the dead worker's claim, until its lease ends

    holding = false;
    const second = await coreApi();
    await until("every delivery to be delivered", async () => (await database.db.select().from(outbox)).length === 0, 30_000);

    expect([...processed.keys()].sort()).toEqual(owed);
    expect([...processed.values()]).toEqual([1, 1, 1]);
    expect(seen.every((s) => s.signatureValid)).toBe(true);
    // the delivery the dead worker was sending arrived again under the same key
    expect(seen.filter((s) => s.key === seen[0]!.key).length).toBeGreaterThanOrEqual(2);

    // The codes that survived the crash verify the numbers, through the new process.
    for (const userId of userIds) {
      const sms = seen.filter((s) => s.body.data.user_id === userId).at(-1)!;
      const verified = await json(`${second.url}/internal/verify-phone-number`, { method: "POST", headers, body: JSON.stringify({ user_id: userId, code: sms.body.data.code }) });
      expect(verified.user.phone_number_status).toBe(3);
    }
    second.process.child.kill("SIGTERM");
    expect((await second.process.exited()).code).toBe(0);
  }, 120_000);
});
