/**
 * Phone verification cannot be brute-forced or used to send SMS in bulk (users/phone-verification-
 * limits.ts), through HTTP on a real database with the chain's default limits: a number gets a
 * code at most once a minute and 5 an hour, a user 5 an hour; wrong codes are limited to 10 an
 * hour per user and per number, across codes. The SMS sent are the outbox's
 * `phone_number_verification` deliveries (opened with the service's secret box); the clock is the
 * app's injected one.
 */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, TEST_SECRET_KEY, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { chains, outbox, phoneVerificationCounters } from "../db/schema.ts";
import { PAYLOAD_PURPOSE } from "../outbox/enqueue.ts";
import { shopperSession } from "../users/user-test-support.ts";
import { createAppHostname } from "../db/seed.ts";

const APP = "app.limits.example.test";
const clock = { now: new Date("2026-03-01T09:00:00Z") };
const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
let core: TestCore;
let admin: TestAdmin;
let box: SecretBox;

beforeAll(async () => {
  core = await startCore({
    clock: () => clock.now,
    resolveHost: async (h) => (h === "sms.example.test" ? ["93.184.216.34"] : Promise.reject(new Error("ENOTFOUND"))),
  });
  const superUser = await core.admin({ super_user: true });
  admin = await core.admin({ read: true, assign: true });
  box = await openSecretBox(TEST_SECRET_KEY);
  await core.db.update(chains).set({ verifyPhoneNumbers: true }).where(eq(chains.id, core.chainId));
  await createAppHostname(core.db, core.chainId, APP);
  const hook = await core.json("/resources/webhook", {
    method: "POST",
    headers: { ...superUser.headers, "content-type": "application/json" },
    body: JSON.stringify({ event_type: "phone_number_verification", target_url: "https://sms.example.test/send", signing_secret: "whsec_limits_provider_01" }),
  });
  if (hook.status !== 200) throw new Error(JSON.stringify(hook.body));
});
afterAll(() => core?.close());

let seq = 0;
const call = async (path: string, params: Record<string, unknown>, headers: Record<string, string>, method = "POST") => {
  const res = await core.request(path, { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(params) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as any };
};
const addUser = async (phone: string) => {
  const res = await call("/internal/add-user", { chain_id: core.chainId, username: `limits${++seq}@example.com`, country_code: "NL", phone_number: phone }, admin.headers);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.results.user as { id: number; phone_number: string };
};
const alterUser = (params: Record<string, unknown>, headers = admin.headers) => call("/internal/alter-user", params, headers, "PUT");
const verify = (userId: number, code: string) => call("/internal/verify-phone-number", { user_id: userId, code }, admin.headers);
/** The SMS enqueued so far: user, number and code of every phone_number_verification delivery. */
const sent = async () => {
  const rows = await core.db.select().from(outbox).where(and(eq(outbox.chainId, core.chainId), eq(outbox.eventType, "phone_number_verification")));
  return Promise.all(rows.map(async (r) => JSON.parse(await box.open(r.payload, PAYLOAD_PURPOSE)) as { user_id: number; phone_number: string; code: string }));
};
const sentTo = async (userId: number) => (await sent()).filter((s) => s.user_id === userId);
/** A code other than `code` (the n-th such guess). */
const guess = (n: number, code: string) => {
  const g = String(n % 1_000_000).padStart(6, "0");
  return g === code ? String((n + 1) % 1_000_000).padStart(6, "0") : g;
};
const errorOf = (r: { status: number; body: any }) => [r.status, r.body.error?.code, r.body.error?.name];

describe("re-submitting a number", () => {
  it("30 quick re-submits in any format send 1 code; each call succeeds with status 2, and the code stays valid", async () => {
    const user = await addUser("+31611100001");
    const formats = ["06 11100001", "+31611100001", "0031611100001", "+31 6 1110 0001", "06-11100001"];
    for (let i = 0; i < 30; i++) {
      later(100); // 3 s for all 30
      const res = await alterUser({ user_id: user.id, phone_number: formats[i % formats.length] });
      expect([res.status, res.body.results?.user.phone_number_status]).toEqual([200, 2]);
    }
    const codes = await sentTo(user.id);
    expect(codes).toHaveLength(1);
    expect((await verify(user.id, codes[0]!.code)).status).toBe(200);
  });

  it("a lost SMS is replaced once the 60 s interval passed; 30 re-submits over 30 minutes send 5 codes (5 per number an hour)", async () => {
    const user = await addUser("+31611100002");
    later(59_000);
    await alterUser({ user_id: user.id, phone_number: "06 11100002" });
    expect(await sentTo(user.id)).toHaveLength(1); // 59 s: not yet
    later(1_000);
    await alterUser({ user_id: user.id, phone_number: "06 11100002" });
    expect(await sentTo(user.id)).toHaveLength(2);
    for (let i = 0; i < 30; i++) {
      later(60_000);
      expect((await alterUser({ user_id: user.id, phone_number: "+31611100002" })).status).toBe(200);
    }
    expect(await sentTo(user.id)).toHaveLength(5);
    // the window of the first send ends an hour after it: then one more
    later(60 * 60_000);
    await alterUser({ user_id: user.id, phone_number: "+31611100002" });
    expect(await sentTo(user.id)).toHaveLength(6);
  });

  it("two racing re-submits of one number send at most one code; eight racing ones too", async () => {
    const user = await addUser("+31611100003");
    for (const racers of [2, 8]) {
      later(61_000);
      const before = (await sentTo(user.id)).length;
      const answers = await Promise.all(Array.from({ length: racers }, () => alterUser({ user_id: user.id, phone_number: "06 11100003" })));
      expect(answers.map((a) => a.status)).toEqual(Array(racers).fill(200));
      expect((await sentTo(user.id)).length - before).toBe(1);
    }
  });

  it("two users adding one number at the same moment: one code; the other is told 920 with Retry-After 60 and gets one after", async () => {
    const before = (await sent()).length;
    const users = await Promise.all([addUser("+31611100004"), addUser("06 11100004")]);
    expect(users.map((u) => u.phone_number)).toEqual(["+31611100004", "+31611100004"]);
    expect((await sent()).length - before).toBe(1);
    // the one held back by the number's interval is told to re-submit once it has passed
    const sentToHeld = await Promise.all(users.map((u) => sentTo(u.id)));
    const waiting = users[sentToHeld.findIndex((s) => s.length === 0)]!;
    const refused = await verify(waiting.id, "123456");
    expect(errorOf(refused)).toEqual([429, 920, "phone_verification_send_limited"]);
    expect(Number(refused.retryAfter)).toBe(60);
    later(60_000);
    await alterUser({ user_id: waiting.id, phone_number: "+31611100004" });
    expect(await sentTo(waiting.id)).toHaveLength(1);
  });
});

describe("sending to strangers", () => {
  it("a shopper setting 10 strangers' numbers sends 5 SMS; the rest are held back (920 with Retry-After) while the writes succeed", async () => {
    later(60 * 60_000);
    const shopper = await shopperSession(core, APP, `pumper${++seq}@example.com`);
    const answers = [];
    for (let i = 0; i < 10; i++) {
      later(61_000);
      answers.push(await alterUser({ phone_number: `+3161120${String(i).padStart(4, "0")}` }, shopper.headers));
    }
    expect(answers.map((a) => [a.status, a.body.results?.user.phone_number_status])).toEqual(Array(10).fill([200, 2]));
    expect(answers.at(-1)!.body.results.user.phone_number).toBe("+31611200009");
    expect(await sentTo(shopper.id)).toHaveLength(5);
    // the held-back number has no code: verify says why and how long to wait
    const refused = await call("/internal/verify-phone-number", { code: "123456" }, shopper.headers);
    expect(errorOf(refused)).toEqual([429, 920, "phone_verification_send_limited"]);
    const wait = Number(refused.retryAfter);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3600 - 5 * 61 + 1);
    expect(refused.body.error.description).toContain(`${wait} s`);
    // once the window ended the number is sent a code on re-submit
    later(wait * 1000);
    await alterUser({ phone_number: "+31611200009" }, shopper.headers);
    expect((await sentTo(shopper.id)).map((s) => s.phone_number).at(-1)).toBe("+31611200009");
  });

  it("the chain's send limit holds back every user's codes alike (set to 3: the 4th number gets none)", async () => {
    later(60 * 60_000);
    await core.db.update(chains).set({ phoneVerificationSendsPerChain: 3 }).where(eq(chains.id, core.chainId));
    try {
      const users = [];
      for (let i = 0; i < 4; i++) users.push(await addUser(`+3161130000${i}`));
      expect((await Promise.all(users.map((u) => sentTo(u.id)))).map((s) => s.length)).toEqual([1, 1, 1, 0]);
      const refused = await verify(users[3]!.id, "123456");
      expect(errorOf(refused)).toEqual([429, 920, "phone_verification_send_limited"]);
      expect(Number(refused.retryAfter)).toBe(3600);
    } finally {
      await core.db.update(chains).set({ phoneVerificationSendsPerChain: 1000 }).where(eq(chains.id, core.chainId));
    }
  });
});

describe("guessing codes", () => {
  it("3,000 guesses across 600 re-sends in 13.5 s: 1 code sent, 5 guesses checked, the rest refused 907", async () => {
    later(60 * 60_000);
    const user = await addUser("+31611400001");
    const answers: Record<number, number> = {};
    let n = 0;
    for (let resend = 0; resend < 600; resend++) {
      later(22); // 600 rounds in 13.5 s
      if (resend % 60 === 0) {
        // every 60th round goes through HTTP (the rest would only repeat it): re-send, then 5 guesses
        expect((await alterUser({ user_id: user.id, phone_number: "06 11400001" })).status).toBe(200);
        const code = (await sentTo(user.id)).at(-1)!.code;
        for (let g = 0; g < 5; g++) {
          const res = await verify(user.id, guess(++n, code));
          answers[res.body.error.code] = (answers[res.body.error.code] ?? 0) + 1;
        }
      }
    }
    expect(await sentTo(user.id)).toHaveLength(1);
    expect(answers).toEqual({ 905: 5, 907: 45 });
  });

  it("guessing across a re-send a minute for 59 minutes: 5 codes sent, 10 of 295 wrong guesses checked; the right code is 907 until the window ends", async () => {
    later(60 * 60_000);
    const user = await addUser("+31611400002");
    const counts: Record<number, number> = {};
    let n = 0;
    for (let round = 0; round < 59; round++) {
      later(60_000);
      await alterUser({ user_id: user.id, phone_number: "+31611400002" });
      const code = (await sentTo(user.id)).at(-1)!.code;
      for (let g = 0; g < 5; g++) {
        const res = await verify(user.id, guess(++n, code));
        counts[res.body.error.code] = (counts[res.body.error.code] ?? 0) + 1;
      }
    }
    expect(await sentTo(user.id)).toHaveLength(5);
    // 10 checked (905); then refused unchecked: 907 while the last code (sent at minute 4) lives, 906 after
    expect(counts).toEqual({ 905: 10, 907: 55, 906: 230 });
    // minute 60: the sends' window ended, a new code goes out; the wrong codes' window (from minute 1) still runs
    later(60_000);
    await alterUser({ user_id: user.id, phone_number: "+31611400002" });
    const right = (await sentTo(user.id)).at(-1)!.code;
    expect(await sentTo(user.id)).toHaveLength(6);
    const refused = await verify(user.id, right);
    expect(errorOf(refused)).toEqual([429, 907, "phone_verification_attempts_exceeded"]);
    const wait = Number(refused.retryAfter);
    expect(refused.body.error.description).toBe(`Too many wrong codes for this phone number; try again in ${wait} s.`);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    later(wait * 1000);
    expect((await verify(user.id, right)).status).toBe(200);
  });

  it("wrong codes count per number across users: 10 for the number, then an 11th user of it is refused (907, Retry-After)", async () => {
    later(60 * 60_000);
    const holders = [];
    for (let i = 0; i < 3; i++) {
      later(61_000);
      holders.push(await addUser("+31611400003"));
    }
    for (const holder of holders.slice(0, 2)) {
      const code = (await sentTo(holder.id)).at(-1)!.code;
      for (let g = 0; g < 5; g++) expect((await verify(holder.id, guess(g + 1, code))).body.error.code).toBe(905);
    }
    const third = holders[2]!;
    const refused = await verify(third.id, (await sentTo(third.id)).at(-1)!.code);
    expect(errorOf(refused)).toEqual([429, 907, "phone_verification_attempts_exceeded"]);
    expect(refused.body.error.description).toContain("this phone number");
    expect(Number(refused.retryAfter)).toBeGreaterThan(3600 - 3 * 61 - 5);
  });
});

describe("racing guesses", () => {
  it("15 wrong codes at once from 3 users of one number: exactly 10 checked (the number's limit), 5 refused 907", async () => {
    later(60 * 60_000);
    const holders = [];
    for (let i = 0; i < 3; i++) {
      later(61_000);
      holders.push(await addUser("+31611600001"));
    }
    const codes = await Promise.all(holders.map(async (h) => (await sentTo(h.id)).at(-1)!.code));
    const answers = await Promise.all(holders.flatMap((h, i) => Array.from({ length: 5 }, (_, g) => verify(h.id, guess(g + 1, codes[i]!)))));
    expect(answers.map((a) => a.body.error?.code).sort()).toEqual([...Array(10).fill(905), ...Array(5).fill(907)]);
    const counters = await core.db.select().from(phoneVerificationCounters)
      .where(and(eq(phoneVerificationCounters.chainId, core.chainId), eq(phoneVerificationCounters.scope, "try_number"), eq(phoneVerificationCounters.subject, "+31611600001")));
    expect(counters.map((c) => c.count)).toEqual([10]);
  });
});

describe("the counters", () => {
  it("a phone write prunes up to 100 of the chain's counters whose window and interval are over; live ones stay", async () => {
    // a code sent two hours ago: its counters (number, user, chain) are spent now
    await addUser("+31611500002");
    later(2 * 60 * 60_000);
    const rows = () => core.db.select().from(phoneVerificationCounters).where(eq(phoneVerificationCounters.chainId, core.chainId));
    const spent = async () => (await rows()).filter((r) => r.windowStartedAt.getTime() <= clock.now.getTime() - 3600_000).length;
    const spentBefore = await spent();
    expect(spentBefore).toBeGreaterThan(0);
    const user = await addUser("+31611500001");
    expect(await spent()).toBe(Math.max(0, spentBefore - 100));
    const live = (await rows()).filter((r) => r.windowStartedAt.getTime() === clock.now.getTime()).map((r) => `${r.scope}:${r.subject}:${r.count}`).sort();
    expect(live).toEqual(["send_chain::1", "send_number:+31611500001:1", `send_user:${user.id}:1`]);
  });
});
