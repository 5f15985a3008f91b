/**
 * The outbox worker against msw receivers (handbook, "Events"): signed at-least-once delivery,
 * one idempotency key per delivery, back-off with jitter, failures kept, nothing sent for a
 * rolled-back change, two workers never sending one row, a stop mid-flight giving rows back, a
 * database restart ridden out (through helpers/database-proxy.ts), and the rows of one ordering
 * key sent one at a time in id order, by one worker or two racing. The clock and the randomness are
 * fakes; no test waits for a back-off in real time.
 */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { verifySignature } from "@service/shared/webhook-signature";
import { eq, sql } from "drizzle-orm";
import { delay, http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCore, TEST_SECRET_KEY, type TestCore } from "../../../test/helpers/core.ts";
import { startDatabaseProxy } from "../../../test/helpers/database-proxy.ts";
import { TEST_DATABASE_URL } from "../../../test/helpers/databases.ts";
import { openCoreDatabase } from "../db/client.ts";
import { outbox } from "../db/schema.ts";
import type { DestinationKind, DestinationKinds } from "./destination.ts";
import { enqueue, type Delivery } from "./enqueue.ts";
import { OutboxWorker, realSleep, type OutboxWorkerOptions } from "./outbox-worker.ts";
import { DEFAULT_RETRY_POLICY } from "./retry-delay.ts";

/**
 * A second pool on the test database for a racing worker, its connections opened first: a cold
 * pool spends its first tick connecting, long enough on a loaded machine for the warm worker to
 * drain the outbox alone, and the race would not happen.
 */
async function openWarmPool() {
  const other = openCoreDatabase(TEST_DATABASE_URL, core.dbName);
  try {
    await Promise.all([1, 2].map(() => other.db.execute(sql`SELECT 1`)));
  } catch (err) {
    await other.close();
    throw err;
  }
  return other;
}

const RECEIVER = "https://receiver.example.test/hook";
const SECRET = "whsec_test_0123456789";

/** A kind that posts the payload as it is to RECEIVER, signed with SECRET. */
const testKind: DestinationKind = {
  async prepare({ row, payload }) {
    return { request: { url: RECEIVER, body: JSON.stringify({ id: row.deliveryId, data: payload }), signingSecret: SECRET } };
  },
};

/** What the receiver saw: every request, and the keys it processed (it drops a repeated key). */
interface Seen {
  key: string;
  event: string | null;
  body: string;
  signatureValid: boolean;
}
let seen: Seen[] = [];
const processed = new Set<string>();
/** the bodies the receiver answered 2xx, in the order it answered */
let acknowledged: string[] = [];
/** the receiver's answer to the next requests, in order (then 200) */
let answers: Array<"500" | "hang" | "down" | "302" | "slow"> = [];
/** ordering key (the test payload's `key`) -> requests of it the receiver is handling now, and the most at once */
let keyInFlight = new Map<string, number>();
let keyMostAtOnce = new Map<string, number>();
/** how long the receiver takes over a request with a payload key, so that sends of one key could overlap */
let keyedAnswerMs = 0;

const server = setupServer(
  http.post(RECEIVER, async ({ request }) => {
    const body = await request.text();
    const key = request.headers.get("idempotency-key") ?? "";
    const answer = answers.shift();
    if (answer === "down") return HttpResponse.error();
    seen.push({
      key,
      event: request.headers.get("x-service-event"),
      body,
      signatureValid: await verifySignature(request.headers.get("x-service-signature"), body, SECRET, { now: clock.now }),
    });
    const orderingKey = (JSON.parse(body) as { data?: { key?: string } }).data?.key;
    if (orderingKey !== undefined) {
      keyInFlight.set(orderingKey, (keyInFlight.get(orderingKey) ?? 0) + 1);
      keyMostAtOnce.set(orderingKey, Math.max(keyMostAtOnce.get(orderingKey) ?? 0, keyInFlight.get(orderingKey)!));
    }
    try {
      if (answer === "hang") await delay("infinite");
      if (answer === "slow") await delay(150);
      if (orderingKey !== undefined && keyedAnswerMs > 0) await delay(keyedAnswerMs);
    } finally {
      if (orderingKey !== undefined) keyInFlight.set(orderingKey, keyInFlight.get(orderingKey)! - 1);
    }
    if (answer === "500") return HttpResponse.text("receiver broke", { status: 500 });
    if (answer === "302") return new HttpResponse(null, { status: 302, headers: { location: "http://127.0.0.1/internal" } });
    processed.add(key);
    acknowledged.push(body);
    return HttpResponse.json({ ok: true });
  }),
);

const clock = { now: new Date("2026-03-01T10:00:00.000Z") };
const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

let core: TestCore;
let box: SecretBox;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  core = await startCore();
  box = await openSecretBox(TEST_SECRET_KEY);
});
afterAll(async () => {
  server.close();
  await core.close();
});
beforeEach(async () => {
  seen = [];
  processed.clear();
  answers = [];
  acknowledged = [];
  keyInFlight = new Map();
  keyMostAtOnce = new Map();
  keyedAnswerMs = 0;
  await core.db.delete(outbox);
});
afterEach(() => server.resetHandlers());

const kinds: DestinationKinds = { test: testKind };
const worker = (o: Partial<OutboxWorkerOptions> = {}) =>
  new OutboxWorker({ db: core.db, secretBox: box, kinds, clock: () => clock.now, random: () => 0.5, timeoutMs: 10_000, ...o });

const delivery = (n: number, o: Partial<Delivery> = {}): Delivery => ({ chainId: core.chainId, kind: "test", eventType: "test_event", payload: { n }, ...o });
const add = (d: Delivery) => core.db.transaction((tx) => enqueue(tx, d, { secretBox: box, now: clock.now }));
const rows = () => core.db.select().from(outbox);

describe("delivery", () => {
  it("sends a committed delivery once, signed, with its idempotency key and event, then deletes it", async () => {
    const { deliveryId } = await add(delivery(1));
    expect(await worker().tick()).toBe(1);
    expect(seen).toEqual([{ key: deliveryId, event: "test_event", body: JSON.stringify({ id: deliveryId, data: { n: 1 } }), signatureValid: true }]);
    expect(await rows()).toEqual([]);
    expect(await worker().tick()).toBe(0);
  });

  it("an idle round, or one with only rows held back by their key, opens no transaction (no commit, no marker row); a round with a row due claims it in one", async () => {
    let transactions = 0;
    const counted = new Proxy(core.db, {
      get(target, key, receiver) {
        if (key === "transaction") transactions++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(await worker({ db: counted }).tick()).toBe(0);
    expect(transactions).toBe(0);
    // A due row held back by an earlier row of its key (waiting for its next attempt) is no claim either.
    const first = await add(delivery(1, { orderingKey: "user:7" }));
    await add(delivery(2, { orderingKey: "user:7" }));
    await core.db.update(outbox).set({ nextAttemptAt: new Date(clock.now.getTime() + 60_000) }).where(eq(outbox.deliveryId, first.deliveryId));
    expect(await worker({ db: counted }).tick()).toBe(0);
    expect(transactions).toBe(0);
    await core.db.delete(outbox);
    await add(delivery(1));
    expect(await worker({ db: counted }).tick()).toBe(1);
    expect(transactions).toBeGreaterThan(0);
    expect(await rows()).toEqual([]);
  });

  it("keeps the payload sealed at rest", async () => {
    await add(delivery(1, { payload: { code: "493817" } }));
    const [row] = await rows();
    expect(row!.payload).toMatch(/^v1\./);
    expect(row!.payload).not.toContain("493817");
  });

  it("sends nothing for a change whose transaction rolled back", async () => {
    await expect(
      core.db.transaction(async (tx) => {
        await enqueue(tx, delivery(1), { secretBox: box, now: clock.now });
        throw new Error("the change failed after enqueueing");
      }),
    ).rejects.toThrow("the change failed");
    expect(await rows()).toEqual([]);
    expect(await worker().tick()).toBe(0);
    expect(seen).toEqual([]);
  });
});

describe("failures and back-off", () => {
  it("retries a 500 after the back-off, with the same key and a fresh signature, and the receiver processes it once", async () => {
    const { deliveryId } = await add(delivery(1));
    answers = ["500"];
    const w = worker();
    expect(await w.tick()).toBe(1);
    const [row] = await rows();
    // random 0.5: half the 1 s step plus a quarter
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500: receiver broke", leaseToken: null });
    expect(row!.nextAttemptAt.getTime() - clock.now.getTime()).toBe(750);
    expect(await w.tick()).toBe(0); // not due yet
    advance(750);
    expect(await w.tick()).toBe(1);
    expect(seen.map((s) => s.key)).toEqual([deliveryId, deliveryId]);
    expect(seen.every((s) => s.signatureValid)).toBe(true);
    expect([...processed]).toEqual([deliveryId]);
    expect(await rows()).toEqual([]);
  });

  it("gives up on a receiver that does not answer within the timeout, and retries it", async () => {
    await add(delivery(1));
    answers = ["hang"];
    expect(await worker({ timeoutMs: 100 }).tick()).toBe(1);
    const [row] = await rows();
    expect(row).toMatchObject({ attempts: 1, lastStatusCode: null, lastError: "no answer within 100 ms" });
    advance(750);
    expect(await worker().tick()).toBe(1);
    expect(processed.size).toBe(1);
  });

  it("rides out a receiver that is down for a while: doubling waits, then delivered exactly once", async () => {
    const { deliveryId } = await add(delivery(1));
    answers = ["down", "down", "down", "down"];
    const w = worker();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      expect(await w.tick()).toBe(1);
      const [row] = await rows();
      expect(row!.lastError).toMatch(/^request failed/);
      waits.push(row!.nextAttemptAt.getTime() - clock.now.getTime());
      clock.now = row!.nextAttemptAt;
    }
    expect(waits).toEqual([750, 1500, 3000, 6000]);
    expect(await w.tick()).toBe(1);
    expect([...processed]).toEqual([deliveryId]);
    expect(await rows()).toEqual([]);
  });

  it("treats a redirect as a failure and never follows it", async () => {
    await add(delivery(1));
    answers = ["302"];
    await worker().tick();
    const [row] = await rows();
    expect(row).toMatchObject({ status: "pending", lastStatusCode: 302 });
    expect(seen).toHaveLength(1);
  });

  it("keeps the delivery as failed after the last attempt and never sends it again", async () => {
    await add(delivery(1));
    const w = worker({ retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 } });
    answers = ["500", "500", "500", "500"];
    for (let i = 0; i < 3; i++) {
      expect(await w.tick()).toBe(1);
      clock.now = (await rows())[0]!.nextAttemptAt;
    }
    const [row] = await rows();
    expect(row).toMatchObject({ status: "failed", attempts: 3, lastStatusCode: 500, leaseToken: null });
    advance(86_400_000);
    expect(await w.tick()).toBe(0);
    expect(seen).toHaveLength(3);
  });

  it("fails an expired delivery without sending it", async () => {
    await add(delivery(1, { expiresAt: new Date(clock.now.getTime() + 1_000) }));
    advance(1_000);
    expect(await worker().tick()).toBe(1);
    expect(seen).toEqual([]);
    expect((await rows())[0]).toMatchObject({ status: "failed", lastError: "expired before it could be delivered" });
  });

  it("fails a row of an unknown kind, and of a kind that gives it up; retries a kind that throws", async () => {
    const kindsHere: DestinationKinds = {
      gone: { prepare: async () => ({ giveUp: "its webhook was deleted" }) },
      flaky: {
        prepare: async () => {
          throw new Error("database hiccup");
        },
      },
    };
    await add(delivery(1, { kind: "nowhere" }));
    await add(delivery(2, { kind: "gone" }));
    await add(delivery(3, { kind: "flaky" }));
    expect(await worker({ kinds: kindsHere }).tick()).toBe(3);
    const byKind = Object.fromEntries((await rows()).map((r) => [r.kind, r]));
    expect(byKind.nowhere).toMatchObject({ status: "failed", lastError: "unknown destination kind nowhere" });
    expect(byKind.gone).toMatchObject({ status: "failed", lastError: "its webhook was deleted" });
    expect(byKind.flaky).toMatchObject({ status: "pending", attempts: 1, lastError: "preparing the request failed: database hiccup" });
    expect(seen).toEqual([]);
  });
});

describe("several workers", () => {
  it("two workers on their own pools racing over 40 deliveries never send one twice", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) ids.add((await add(delivery(i))).deliveryId);
    const other = await openWarmPool();
    try {
      const a = worker({ concurrency: 5 });
      const b = worker({ db: other.db, concurrency: 5 });
      const claimed = new Map<OutboxWorker, number>([[a, 0], [b, 0]]);
      const drain = async (w: OutboxWorker) => {
        for (let n = await w.tick(); n > 0; n = await w.tick()) claimed.set(w, claimed.get(w)! + n);
      };
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      // both took part, and between them claimed each row once
      expect(claimed.get(a)).toBeGreaterThan(0);
      expect(claimed.get(b)).toBeGreaterThan(0);
      expect(claimed.get(a)! + claimed.get(b)!).toBe(40);
    } finally {
      await other.close();
    }
    expect(seen).toHaveLength(40);
    expect(new Set(seen.map((s) => s.key))).toEqual(ids);
    expect(await rows()).toEqual([]);
  });

  it("a stop mid-flight gives the row back unsent, due at once, and another worker delivers it", async () => {
    const { deliveryId } = await add(delivery(1));
    answers = ["hang"];
    const w = worker({ timeoutMs: 60_000, pollMs: 10 });
    w.start();
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(w.inFlight).toBe(1);
    // no grace: the send is cut at once
    await w.stop(0);
    expect(w.inFlight).toBe(0);
    const [row] = await rows();
    expect(row).toMatchObject({ status: "pending", attempts: 0, leaseToken: null });
    expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(clock.now.getTime());
    expect(await worker().tick()).toBe(1);
    expect([...processed]).toEqual([deliveryId]);
  });

  it("a stop lets a send in flight finish within the grace period: delivered, not given back", async () => {
    const { deliveryId } = await add(delivery(1));
    answers = ["slow"];
    const w = worker({ timeoutMs: 60_000, pollMs: 10 });
    w.start();
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    await w.stop(10_000);
    expect([...processed]).toEqual([deliveryId]);
    expect(await rows()).toEqual([]);
  });

  it("a worker that died mid-send leaves its row to the next one once the lease ends", async () => {
    await add(delivery(1));
    answers = ["hang"];
    // The first worker's send never settles within this test (a crash, as far as the row knows).
    const dead = worker({ timeoutMs: 60_000, leaseMs: 5_000 });
    void dead.tick();
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await worker().tick()).toBe(0); // leased
    advance(5_000);
    expect(await worker().tick()).toBe(1);
    expect(processed.size).toBe(1);
    await dead.stop(0);
  });
});

describe("order per ordering key", () => {
  /** delivery `n` of ordering key `key`; the payload names both, so the receiver can tell them apart */
  const keyed = (key: string, n: number) => delivery(n, { orderingKey: key, payload: { key, n } });
  /** what the receiver was sent, in the order it came */
  const sent = () => seen.map((s) => (JSON.parse(s.body) as { data: { key?: string; n: number } }).data);
  /** what the receiver answered 2xx for, in the order it answered */
  const delivered = () => acknowledged.map((body) => (JSON.parse(body) as { data: { key?: string; n: number } }).data);
  const rowsInOrder = () => core.db.select().from(outbox).orderBy(outbox.id);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("claims the second row of a key only once the first was delivered, though both are due", async () => {
    await add(keyed("user:1", 1));
    await add(keyed("user:1", 2));
    // One round with room for eight claims only the first.
    expect(await worker().tick()).toBe(1);
    expect(sent()).toEqual([{ key: "user:1", n: 1 }]);
    expect(await rowsInOrder()).toMatchObject([{ orderingKey: "user:1", attempts: 0 }]);
    expect(await worker().tick()).toBe(1);
    expect(delivered()).toEqual([{ key: "user:1", n: 1 }, { key: "user:1", n: 2 }]);
    expect(await rowsInOrder()).toEqual([]);
  });

  it("while the first is being sent, no worker claims the second; a first given back unsent still goes first", async () => {
    await add(keyed("user:1", 1));
    await add(keyed("user:1", 2));
    answers = ["hang"];
    const sending = worker({ timeoutMs: 60_000 });
    void sending.tick();
    while (seen.length === 0) await sleep(5);
    expect(await worker().tick()).toBe(0);
    advance(60_000); // still within the first one's lease (2 x 60 s + 2 s)
    expect(await worker().tick()).toBe(0);
    await sending.stop(0); // cut: the first is given back, due at once
    expect(await worker().tick()).toBe(1);
    expect(await worker().tick()).toBe(1);
    expect(delivered()).toEqual([{ key: "user:1", n: 1 }, { key: "user:1", n: 2 }]);
  });

  it("a first that fails for a while keeps the second waiting through its back-off; then both arrive, in order", async () => {
    await add(keyed("user:1", 1));
    await add(keyed("user:1", 2));
    answers = ["500", "down", "500"];
    const w = worker();
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await w.tick()).toBe(1);
      const [first, second] = await rowsInOrder();
      expect(first).toMatchObject({ status: "pending", attempts: attempt });
      expect(second).toMatchObject({ status: "pending", attempts: 0 });
      // The second is due, the first is not yet: nothing goes.
      expect(second!.nextAttemptAt.getTime()).toBeLessThanOrEqual(clock.now.getTime());
      expect(await w.tick()).toBe(0);
      clock.now = first!.nextAttemptAt;
    }
    expect(await w.tick()).toBe(1);
    expect(await w.tick()).toBe(1);
    expect(sent().map((d) => d.n)).toEqual([1, 1, 1, 2]); // the "down" attempt never reached the receiver
    expect(delivered()).toEqual([{ key: "user:1", n: 1 }, { key: "user:1", n: 2 }]);
    expect(await rowsInOrder()).toEqual([]);
  });

  it("a first that failed for good no longer holds the second back", async () => {
    await add(keyed("user:1", 1));
    await add(keyed("user:1", 2));
    await add(keyed("user:1", 3));
    answers = ["500", "500"];
    const w = worker({ retry: { ...DEFAULT_RETRY_POLICY, maxAttempts: 2 } });
    expect(await w.tick()).toBe(1);
    clock.now = (await rowsInOrder())[0]!.nextAttemptAt;
    expect(await w.tick()).toBe(1);
    expect((await rowsInOrder())[0]).toMatchObject({ status: "failed", attempts: 2 });
    expect(await w.tick()).toBe(1);
    expect(await w.tick()).toBe(1);
    expect(delivered()).toEqual([{ key: "user:1", n: 2 }, { key: "user:1", n: 3 }]);
    expect(await rowsInOrder()).toMatchObject([{ status: "failed", payload: expect.any(String) }]);
  });

  it("rows of other keys, and rows without a key, are claimed together in one round", async () => {
    await add(keyed("user:1", 1));
    await add(keyed("user:2", 1));
    await add(keyed("user:1", 2));
    await add(delivery(100));
    await add(keyed("user:2", 2));
    await add(delivery(101));
    const w = worker();
    expect(await w.tick()).toBe(4);
    expect(sent().filter((d) => d.key !== undefined).sort((a, b) => a.key!.localeCompare(b.key!))).toEqual([{ key: "user:1", n: 1 }, { key: "user:2", n: 1 }]);
    expect(sent().filter((d) => d.key === undefined).map((d) => d.n).sort()).toEqual([100, 101]);
    expect(await w.tick()).toBe(2);
    expect(await w.tick()).toBe(0);
    expect(processed.size).toBe(6);
  });

  it("two workers on their own pools racing over four keys keep each key's order, one send of a key at a time", async () => {
    const keys = ["user:1", "user:2", "user:3", "user:4"];
    for (let n = 1; n <= 5; n++) {
      for (const key of keys) await add(keyed(key, n));
      await add(delivery(100 + n));
    }
    keyedAnswerMs = 10; // long enough for a second send of a key to overlap, were one started
    const other = await openWarmPool();
    try {
      // a claims one row a round: with 5, a's two loops could hold every key's head and every
      // unkeyed row before b's first round on a loaded machine, and b never got a row.
      const a = worker({ concurrency: 1 });
      const b = worker({ db: other.db, concurrency: 5 });
      const claimed = new Map<OutboxWorker, number>([[a, 0], [b, 0]]);
      // A round finds nothing while the other worker holds the rows its keys wait for: go on until the outbox is empty.
      const drain = async (w: OutboxWorker) => {
        while ((await rows()).length > 0) {
          const n = await w.tick();
          claimed.set(w, claimed.get(w)! + n);
          if (n === 0) await sleep(2);
        }
      };
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      expect(claimed.get(a)).toBeGreaterThan(0);
      expect(claimed.get(b)).toBeGreaterThan(0);
      expect(claimed.get(a)! + claimed.get(b)!).toBe(25);
    } finally {
      await other.close();
    }
    for (const key of keys) {
      expect(sent().filter((d) => d.key === key).map((d) => d.n), key).toEqual([1, 2, 3, 4, 5]);
      expect(keyMostAtOnce.get(key), key).toBe(1);
    }
    expect(seen).toHaveLength(25);
    expect(await rows()).toEqual([]);
  });

  it("enqueue refuses an empty or over-long ordering key", async () => {
    await expect(add(delivery(1, { orderingKey: "" }))).rejects.toThrow("bad ordering key");
    await expect(add(delivery(1, { orderingKey: "k".repeat(129) }))).rejects.toThrow("bad ordering key");
    await add(delivery(1, { orderingKey: "k".repeat(128) }));
    expect(await rows()).toHaveLength(1);
  });
});

describe("a database restart", () => {
  it("keeps polling while the database is away, saying so once without a stack; says when it answers again, then delivers", async () => {
    const { deliveryId } = await add(delivery(1));
    const proxy = await startDatabaseProxy();
    const through = openCoreDatabase(proxy.url, core.dbName);
    const lines: Array<{ level: string; fields: object; message: string }> = [];
    const logger = {
      error: (fields: object, message: string) => void lines.push({ level: "error", fields, message }),
      warn: (fields: object, message: string) => void lines.push({ level: "warn", fields, message }),
      info: (fields: object, message: string) => void lines.push({ level: "info", fields, message }),
    };
    let rounds = 0;
    const w = worker({ db: through.db, pollMs: 10, logger, sleep: (ms, signal) => (rounds++, realSleep(ms, signal)) });
    try {
      await proxy.down();
      w.start();
      // Two failed claims (each spends the transaction runner's retries, about 2.7 s): said once, not twice.
      while (rounds < 2) await new Promise((r) => setTimeout(r, 5));
      expect(lines).toEqual([{
        level: "warn", fields: { code: "ECONNRESET", reason: expect.stringContaining("ECONNRESET") },
        message: "outbox: the database is unavailable; deliveries wait until it answers again",
      }]);
      expect(seen).toEqual([]);
      proxy.up();
      while (processed.size === 0) await new Promise((r) => setTimeout(r, 5));
      await w.stop();
      expect([...processed]).toEqual([deliveryId]);
      expect(lines.slice(1)).toEqual([{ level: "info", fields: {}, message: "outbox: the database answers again; delivering" }]);
      expect(await rows()).toEqual([]);
    } finally {
      await w.stop();
      await through.close();
      await proxy.close();
    }
  });
});

describe("/metrics", () => {
  it("reports the outbox depth by status and the oldest pending delivery's age", async () => {
    await add(delivery(1));
    await add(delivery(2));
    await add(delivery(3, { kind: "nowhere" }));
    await worker({ kinds: {}, concurrency: 1 }).tick(); // the oldest (any) fails: unknown kind
    const text = await (await core.request("/metrics")).text();
    expect(text).toMatch(/^outbox_deliveries\{status="pending"\} 2$/m);
    expect(text).toMatch(/^outbox_deliveries\{status="failed"\} 1$/m);
    expect(text).toMatch(/^outbox_oldest_pending_age_seconds \d+(\.\d+)?$/m);
    const pending = await core.db.select().from(outbox).where(eq(outbox.status, "pending"));
    expect(pending).toHaveLength(2);
  });
});
