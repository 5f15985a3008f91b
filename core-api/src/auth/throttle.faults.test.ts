/**
 * The login throttle's counters (auth/throttle.ts, auth/known-addresses.ts) and the phone
 * verification counters' prune (users/phone-verification-limits.ts) under the conflicts a Galera
 * cluster raises on single statements: each of 1213 (deadlock / certification conflict), 1205 and
 * 1047 put at each of the statements a login writes on its own (test/helpers/fault-injection.ts,
 * autocommit writes). Each statement is run again by the transaction runner's runStatement, so the
 * login answers as it would without the fault (200 for the right password, 401 for a wrong one)
 * and each counter counts the attempt exactly once.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { injectFaults, type FaultInjector } from "../../../test/helpers/fault-injection.ts";
import { loginKnownAddress, loginThrottle, phoneVerificationCounters, sessions } from "../db/schema.ts";
import { createAdmin } from "../db/seed.ts";
import { pruneCounters } from "../users/phone-verification-limits.ts";
import { knownAddressKey } from "./known-addresses.ts";
import { sha256Hex } from "../crypto/secrets.ts";

let core: TestCore;
let faults: FaultInjector;
const NOW = new Date("2026-06-01T08:00:00Z");
const CONFLICTS = ["deadlock", "lock_wait", "not_ready"] as const;

beforeAll(async () => {
  core = await startCore({ clock: () => NOW, clientAddress: (c) => c.req.header("x-test-peer"), sleep: async () => undefined });
  faults = injectFaults(core.db.$client);
});
afterAll(() => core.close());

let seq = 0;
async function newAdmin() {
  const username = `faulty${++seq}@example.com`;
  return { username, id: await createAdmin(core.db, { username, password: "right-password" }) };
}
function login(username: string, password: string, peer: string) {
  return core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-peer": peer },
    body: JSON.stringify({ username, password }),
  });
}
const counter = async (key: string) => (await core.db.select().from(loginThrottle).where(eq(loginThrottle.keyHash, sha256Hex(key))))[0];
const sessionsOf = async (userId: number) => (await core.db.select().from(sessions).where(and(eq(sessions.userId, userId), eq(sessions.kind, "admin")))).length;

/** How many statements a clean login with `password` writes on its own (autocommit). */
async function autocommitWrites(password: string): Promise<number> {
  const admin = await newAdmin();
  faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER, autocommitWrites: true });
  const res = await login(admin.username, password, `192.0.2.${++seq % 250}`).finally(() => faults.disarm());
  expect(res.status).toBe(password === "right-password" ? 200 : 401);
  return faults.seen;
}

describe("login counters under conflicts on their single statements", () => {
  it("a wrong password: 401, counted once on the pair, the address and the account, whichever statement met the conflict", async () => {
    const writes = await autocommitWrites("wrong");
    expect(writes).toBeGreaterThanOrEqual(2); // the count, the lock check
    for (const fault of CONFLICTS) {
      for (let at = 1; at <= writes; at++) {
        const admin = await newAdmin();
        const peer = `198.51.100.${++seq % 250}`;
        faults.arm({ fault, at, autocommitWrites: true });
        const res = await login(admin.username, "wrong", peer).finally(() => faults.disarm());
        const label = `${fault} at ${at} (${faults.injected} injected): ${res.status} ${JSON.stringify(res.body)}`;
        expect(faults.injected, label).toBe(1);
        expect(res.status, label).toBe(401);
        expect((await counter(`pair:admin:${admin.id}|${peer}`))?.failures, label).toBe(1);
        expect((await counter(`account:admin:${admin.id}`))?.failures, label).toBe(1);
      }
    }
  }, 60_000);

  it("the right password: 200, one session, the pair and account afresh, the address known, whichever statement met the conflict", async () => {
    const writes = await autocommitWrites("right-password");
    expect(writes).toBeGreaterThanOrEqual(5); // count, clear, take back, remember, prune, session
    for (const fault of CONFLICTS) {
      for (let at = 1; at <= writes; at++) {
        const admin = await newAdmin();
        const peer = `203.0.113.${++seq % 250}`;
        faults.arm({ fault, at, autocommitWrites: true });
        const res = await login(admin.username, "right-password", peer).finally(() => faults.disarm());
        const label = `${fault} at ${at} (${faults.injected} injected): ${res.status} ${JSON.stringify(res.body)}`;
        expect(faults.injected, label).toBe(1);
        expect(res.status, label).toBe(200);
        expect(await sessionsOf(admin.id), label).toBe(1);
        expect(await counter(`pair:admin:${admin.id}|${peer}`), label).toBeUndefined();
        expect(await counter(`account:admin:${admin.id}`), label).toBeUndefined();
        const known = await core.db.select().from(loginKnownAddress).where(eq(loginKnownAddress.keyHash, knownAddressKey(`admin:${admin.id}`, peer)!));
        expect(known, label).toHaveLength(1);
      }
    }
  }, 60_000);
});

describe("the phone verification counters' prune under a conflict", () => {
  it("deletes the counters that are over after the conflict, and leaves the live ones", async () => {
    const t = phoneVerificationCounters;
    const old = new Date(NOW.getTime() - 30 * 24 * 3600_000);
    for (const fault of CONFLICTS) {
      await core.db.delete(t).where(eq(t.chainId, core.chainId));
      await core.db.insert(t).values([
        { chainId: core.chainId, scope: "send_number", subject: "+31612345678", count: 3, windowStartedAt: old, lastCountedAt: old },
        { chainId: core.chainId, scope: "send_number", subject: "+31687654321", count: 1, windowStartedAt: NOW, lastCountedAt: NOW },
      ]);
      faults.arm({ fault, at: 1, autocommitWrites: true });
      const deleted = await pruneCounters(core.db, core.chainId, NOW).finally(() => faults.disarm());
      expect(faults.injected, fault).toBe(1);
      expect(deleted, fault).toBe(1);
      const left = await core.db.select().from(t).where(eq(t.chainId, core.chainId));
      expect(left.map((r) => r.subject), fault).toEqual(["+31687654321"]);
    }
  });
});
