/**
 * Fault injection into every write call of core-api (the transaction runner,
 * @service/shared/node): each of 1213 (deadlock / Galera certification conflict), 1205 (lock
 * wait timeout), 1047 (Galera node not ready) and a lost connection is put at each statement of
 * the call's transaction, its COMMIT included (test/helpers/fault-injection.ts, under the guarded
 * pool and drizzle, as the driver raises them). The answer must be 200 after the runner's retry,
 * and the rows written exactly once; a fault that lasts answers 503 (904) with Retry-After and
 * writes nothing; a COMMIT that ran but whose answer was lost answers 503 and is not written again.
 * Never a 500. The marker rows count the committed transactions of each call.
 */
import { and, count, eq, sql, sum } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { FAULTS, injectFaults, type Fault, type FaultInjector } from "../../../test/helpers/fault-injection.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { claimDue } from "../outbox/outbox-repository.ts";
import { databaseUntil } from "./request-database.ts";
import { seedRange } from "../users/user-test-support.ts";
import { seedCampaign, seedUser, seedVoucher } from "../vouchers/voucher-test-support.ts";
import {
  businessGeoCellCounts, businesses, businessSearchTokens, businessSearchWordCounts, outbox, transactionMarker, users, vouchers,
} from "./schema.ts";

let core: TestCore;
let admin: TestAdmin;
let faults: FaultInjector;
let campaign: number;
let owner: number;
const NOW = new Date("2026-01-01T00:00:00Z");

beforeAll(async () => {
  // A short deadline: a fault that lasts is answered 503 after it (28 such cases), while a call
  // with one fault and its retry (back-off from 5 ms; tens of ms on a busy 2-core machine) ends
  // well within it.
  core = await startCore({ clock: () => NOW, env: { REQUEST_DEADLINE_MS: "750" } });
  admin = await core.admin({ super_user: true });
  await seedRange(core, core.chainId, "generated", 100_000n, 999_999n);
  campaign = await seedCampaign(core.db, core.chainId);
  owner = await seedUser(core.db, core.chainId);
  faults = injectFaults(core.db.$client);
  const arm = faults.arm.bind(faults);
  faults.arm = (plan) => {
    lastPlan = plan;
    arm(plan);
  };
}, 60_000);
afterAll(() => core.close());

const markers = async () => Number((await core.db.select({ n: count() }).from(transactionMarker))[0]!.n);
const send = (method: string, path: string, body?: unknown) =>
  core.json(path, {
    method,
    headers: { ...admin.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** The word and cell counts equal the rows they count (nothing partial survived). */
async function expectCountsTrue(): Promise<void> {
  const chain = core.chainId;
  const words = Number((await core.db.select({ n: count() }).from(businessSearchTokens).where(eq(businessSearchTokens.chainId, chain)))[0]!.n);
  const counted = Number((await core.db.select({ n: sum(businessSearchWordCounts.n) }).from(businessSearchWordCounts).where(eq(businessSearchWordCounts.chainId, chain)))[0]!.n ?? 0);
  expect(counted, "word counts").toBe(words);
  const located = Number((await core.db.select({ n: count() }).from(businesses)
    .where(and(eq(businesses.chainId, chain), eq(businesses.deleted, false), sql`${businesses.geoCell} IS NOT NULL`)))[0]!.n);
  const cells = Number((await core.db.select({ n: sum(businessGeoCellCounts.n) }).from(businessGeoCellCounts).where(eq(businessGeoCellCounts.chainId, chain)))[0]!.n ?? 0);
  expect(cells, "cell counts").toBe(located);
}

/**
 * A write call: `prepare` stores what it needs (outside the faults), `run` makes the call,
 * `written` reads whether its change is stored, and how many times.
 */
interface WriteCall {
  name: string;
  /** the call's write is one statement on its own (runStatement), not a transaction */
  autocommit?: boolean;
  prepare(i: number): Promise<unknown>;
  run(i: number, prepared: any): Promise<{ status: number; body: any; retryAfter?: string | null }>;
  /** how many times the change is stored (0 or 1; 2 would be a write done twice) */
  written(i: number, prepared: any): Promise<number>;
}

let seq = 0;
let lastPlan: unknown = null;
const place = { latitude: 52.1, longitude: 4.3 };

const CALLS: WriteCall[] = [
  {
    name: "add-business",
    prepare: async () => null,
    run: (i) => send("POST", "/internal/add-business", { chain_id: core.chainId, name: `Fault Shop ${i}`, owner_code: `FS-${i}`, ...place }),
    written: async (i) => Number((await core.db.select({ n: count() }).from(businesses).where(eq(businesses.ownerCode, `FS-${i}`)))[0]!.n),
  },
  {
    name: "alter-business",
    prepare: async (i) => (await insertBusiness(core.db, { chainId: core.chainId, name: `Before ${i}`, ownerCode: `AB-${i}`, ...place }, NOW)).id,
    run: (i, id) => send("PUT", "/internal/alter-business", { business_id: id, name: `Renamed ${i}`, latitude: 51.9, longitude: 4.5 }),
    written: async (i, id) => {
      const [row] = await core.db.select().from(businesses).where(eq(businesses.id, id));
      const words = await core.db.select().from(businessSearchTokens).where(eq(businessSearchTokens.businessId, id));
      const renamed = row!.name === `Renamed ${i}`;
      // the words follow the name: none of the old name's, the new ones once each
      expect(words.filter((w) => w.token === "before")).toHaveLength(renamed ? 0 : 1);
      expect(words.filter((w) => w.token === "renamed")).toHaveLength(renamed ? 1 : 0);
      return renamed ? 1 : 0;
    },
  },
  {
    name: "add-user",
    prepare: async () => null,
    run: (i) => send("POST", "/internal/add-user", { chain_id: core.chainId, username: `fault-${i}@example.com`, first_name: "Faulty" }),
    written: async (i) => Number((await core.db.select({ n: count() }).from(users).where(eq(users.username, `fault-${i}@example.com`)))[0]!.n),
  },
  {
    name: "alter-user",
    prepare: async (i) => {
      const res = await send("POST", "/internal/add-user", { chain_id: core.chainId, username: `altered-${i}@example.com` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.results.user.id as number;
    },
    run: (i, id) => send("PUT", "/internal/alter-user", { user_id: id, first_name: `Altered${i}` }),
    written: async (i, id) => ((await core.db.select().from(users).where(eq(users.id, id)))[0]!.firstName === `Altered${i}` ? 1 : 0),
  },
  {
    name: "POST /resources/voucher",
    prepare: async () => null,
    run: (i) => send("POST", "/resources/voucher", {
      type: "basket", status: "generated", campaign: { id: campaign }, user: { id: owner }, expiry_date: "2027-01-01T00:00:00Z", amount: 10, title: `Fault voucher ${i}`,
    }),
    written: async (i) => Number((await core.db.select({ n: count() }).from(vouchers).where(eq(vouchers.title, `Fault voucher ${i}`)))[0]!.n),
  },
  {
    name: "PATCH /resources/voucher",
    autocommit: true,
    prepare: async () => (await seedVoucher(core.db, { chainId: core.chainId, campaignId: campaign, userId: owner }, NOW)).id,
    run: (i, id) => send("PATCH", `/resources/voucher/${id}`, { title: `Patched ${i}` }),
    written: async (i, id) => ((await core.db.select().from(vouchers).where(eq(vouchers.id, id)))[0]!.title === `Patched ${i}` ? 1 : 0),
  },
  {
    name: "DELETE /resources/voucher",
    prepare: async () => (await seedVoucher(core.db, { chainId: core.chainId, campaignId: campaign, userId: owner }, NOW)).id,
    run: (_i, id) => send("DELETE", `/resources/voucher/${id}`),
    written: async (_i, id) => ((await core.db.select().from(vouchers).where(eq(vouchers.id, id)))[0]!.deleted ? 1 : 0),
  },
];

/** Runs `call` once under `arm` (nothing armed: a clean run) and checks the answer and the rows. */
async function attempt(call: WriteCall, arm: (() => void) | null, expected: "ok" | "unavailable" | "committed") {
  const transactions = call.autocommit ? 0 : 1;
  const i = ++seq;
  const prepared = await call.prepare(i);
  const before = await markers();
  lastPlan = null;
  arm?.();
  let res: Awaited<ReturnType<WriteCall["run"]>>;
  try {
    res = await call.run(i, prepared);
  } finally {
    faults.disarm();
  }
  const label = `${call.name} #${i} (${expected}, ${JSON.stringify(lastPlan)}, ${faults.injected} injected): ${JSON.stringify(faults.statements.slice(-3).map((t) => t.slice(0, 60)))} -> ${res.status} ${JSON.stringify(res.body)}`;
  const written = await call.written(i, prepared);
  const committed = (await markers()) - before;
  if (expected === "ok") {
    expect(res.status, label).toBe(200);
    expect(written, label).toBe(1);
  } else {
    expect(res.status, label).toBe(503);
    expect(res.body.error.code, label).toBe(904);
    expect(written, label).toBe(expected === "committed" ? 1 : 0);
    expect(committed, label).toBe(expected === "committed" ? transactions : 0);
  }
  await expectCountsTrue();
  if (expected === "ok") expect(committed, label).toBe(transactions);
  return { committed, seen: faults.seen };
}

describe("a fault at each statement of each write call's transaction", () => {
  for (const call of CALLS) {
    it(`${call.name}: 200 after the retry, written once, for each fault at each statement; 503 when it lasts or the COMMIT's answer is lost`, async () => {
      const autocommitWrites = call.autocommit === true;
      // A clean run: how many statements its transactions send, and that it commits one transaction.
      const clean = await attempt(call, () => faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER, autocommitWrites }), "ok");
      const statements = faults.seen;
      expect(clean.committed, `${call.name}: its transactions`).toBe(autocommitWrites ? 0 : 1);
      expect(statements).toBeGreaterThanOrEqual(autocommitWrites ? 1 : 3); // begin, a write, the marker, commit at least

      for (const fault of FAULTS.filter((f) => f !== "answer_lost") as Fault[]) {
        for (let at = 1; at <= statements; at++) {
          // A statement on its own that lost its connection is not run again: it may have been applied.
          const outcome = autocommitWrites && fault === "lost" ? "unavailable" : "ok";
          await attempt(call, () => faults.arm({ fault, at, autocommitWrites }), outcome);
        }
        await attempt(call, () => faults.arm({ fault, at: 1, every: true, autocommitWrites }), "unavailable");
      }
      const lastAnswer = autocommitWrites ? { at: statements } : { atCommit: true };
      await attempt(call, () => faults.arm({ fault: "answer_lost", ...lastAnswer, autocommitWrites }), "committed");
    }, 120_000);
  }
});

describe("the outbox claim under faults", () => {
  it("claims each due row once per claim: retried after a fault at any statement, nothing claimed when the fault lasts", async () => {
    const due = async () => {
      const [res] = await core.db.insert(outbox).values({
        deliveryId: crypto.randomUUID(), chainId: core.chainId, kind: "webhook", eventType: "test", payload: "{}", nextAttemptAt: new Date(NOW.getTime() - 1000),
      });
      return Number(res.insertId);
    };
    const claim = (token: string, db = core.db) => claimDue(db, { now: NOW, leaseEnd: new Date(NOW.getTime() + 60_000), limit: 10, token });
    const attemptsOf = async (id: number) => (await core.db.select().from(outbox).where(eq(outbox.id, id)))[0]!;
    const id0 = await due();
    faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER });
    expect((await claim("a".repeat(32))).map((r) => r.id)).toContain(id0);
    const statements = faults.seen;
    faults.disarm();
    for (const fault of ["deadlock", "lock_wait", "not_ready", "lost"] as const) {
      for (let at = 1; at <= statements; at++) {
        const id = await due();
        const token = `${fault.slice(0, 4)}${String(at).padStart(28, "0")}`;
        faults.arm({ fault, at });
        let claimed = await claim(token).finally(() => faults.disarm());
        if (fault === "lost" && !claimed.some((r) => r.id === id)) {
          // The lost connection's transaction holds the row until the server notices the hang-up
          // and rolls it back, and a claim skips locked rows (SKIP LOCKED): the retry right after
          // may find it still locked. The next claim then takes it, once.
          await vi.waitFor(async () => expect((claimed = await claim(token)).map((r) => r.id)).toContain(id), { timeout: 5_000, interval: 20 });
        }
        expect(claimed.map((r) => r.id), `${fault} at ${at}`).toContain(id);
        expect(await attemptsOf(id), `${fault} at ${at}`).toMatchObject({ attempts: 1, leaseToken: token });
      }
      const id = await due();
      faults.arm({ fault, at: 1, every: true });
      // the worker has no request deadline: the runner's own bound ends it (a short one here, on a handle)
      const failure = await claim("z".repeat(32), databaseUntil(core.db, performance.now() + 400)).catch((e: unknown) => e).finally(() => faults.disarm());
      expect((failure as { code?: string }).code, fault).toBe("TRANSACTION_RETRIES_EXHAUSTED");
      expect(await attemptsOf(id)).toMatchObject({ attempts: 0, leaseToken: null });
    }
  }, 120_000);
});
