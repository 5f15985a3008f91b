/**
 * Phone verification by SMS (spec, "Events" and "Versioning" 1.6.3; handbook, "Events"), end to
 * end through HTTP with msw as the chain's SMS provider: with verify_phone_numbers, add-user and
 * alter-user with a valid number issue a six-digit code (stored hashed) and the outbox worker
 * delivers a signed `phone_number_verification` event carrying it; verify-phone-number sets
 * phone_number_status 3; wrong, expired, exhausted and absent codes are refused with their own
 * errors; racing attempts are answered one after the other with an exact attempt count.
 */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { verifySignature } from "@service/shared/webhook-signature";
import { eq } from "drizzle-orm";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCore, TEST_SECRET_KEY, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { chains, outbox, phoneVerifications, users } from "../db/schema.ts";
import { createAppHostname } from "../db/seed.ts";
import { OutboxWorker } from "../outbox/outbox-worker.ts";

const SMS_URL = "https://sms.example.test/v1/messages";
const APP = "app.verify.example.test";
let appCreated = false;
const SECRET = "whsec_sms_provider_0001";
const API_KEY = "sk_test_provider_key";

/** What the SMS provider received. */
interface Sms {
  key: string;
  authorization: string | null;
  signatureValid: boolean;
  body: any;
}
let inbox: Sms[] = [];
/** the provider's answers to the next requests, before it answers 202 */
let failures: Array<"500" | "down"> = [];
/** requests repeating a key the provider had queued already */
let repeats = 0;
const server = setupServer(
  http.post(SMS_URL, async ({ request }) => {
    const failure = failures.shift();
    if (failure === "down") return HttpResponse.error();
    if (failure === "500") return HttpResponse.text("provider error", { status: 500 });
    const text = await request.text();
    const key = request.headers.get("idempotency-key") ?? "";
    // a provider that de-duplicates: a key it queued already is acknowledged, not sent again
    if (inbox.some((s) => s.key === key)) {
      repeats++;
      return HttpResponse.json({ queued: true, duplicate: true }, { status: 202 });
    }
    inbox.push({
      key: request.headers.get("idempotency-key") ?? "",
      authorization: request.headers.get("authorization"),
      signatureValid: await verifySignature(request.headers.get("x-service-signature"), text, SECRET, { now: clock.now }),
      body: JSON.parse(text),
    });
    return HttpResponse.json({ queued: true }, { status: 202 });
  }),
);

const START = new Date("2026-01-01T09:00:00Z");
const clock = { now: START };
let core: TestCore;
let admin: TestAdmin;
let superUser: TestAdmin;
let box: SecretBox;
let worker: OutboxWorker;
let wakes = 0;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  core = await startCore({
    clock: () => clock.now,
    resolveHost: async (h) => (h === "sms.example.test" ? ["93.184.216.34"] : Promise.reject(new Error("ENOTFOUND"))),
    outboxWake: () => void wakes++,
  });
  superUser = await core.admin({ super_user: true });
  admin = await core.admin({ read: true, assign: true });
  box = await openSecretBox(TEST_SECRET_KEY);
  worker = new OutboxWorker({ db: core.db, secretBox: box, clock: () => clock.now, resolveHost: async () => ["93.184.216.34"] });
  await core.db.update(chains).set({ verifyPhoneNumbers: true }).where(eq(chains.id, core.chainId));
  const hook = await core.json("/resources/webhook", {
    method: "POST",
    headers: { ...superUser.headers, "content-type": "application/json" },
    body: JSON.stringify({ event_type: "phone_number_verification", target_url: SMS_URL, signing_secret: SECRET, provider_settings: { sender: "Loyalty", api_key: API_KEY } }),
  });
  if (hook.status !== 200) throw new Error(JSON.stringify(hook.body));
});
afterAll(async () => {
  server.close();
  await core.close();
});
beforeEach(() => {
  // every test starts at 09:00 (some move the clock on past a send interval)
  clock.now = START;
  inbox = [];
  failures = [];
  repeats = 0;
});

let seq = 0;
const post = (path: string, params: Record<string, unknown>, headers: Record<string, string> = admin.headers, method = "POST") =>
  core.json(path, { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(params) });
const addUser = (params: Record<string, unknown> = {}, version = "1.6.8") =>
  post("/internal/add-user", { chain_id: core.chainId, username: `member${++seq}@example.com`, country_code: "NL", phone_number: `06 123456${String(seq % 100).padStart(2, "0")}`, ...params }, { ...admin.headers, "X-Service-API-version": version });
const alterUser = (params: Record<string, unknown>) => post("/internal/alter-user", params, admin.headers, "PUT");
const verify = (params: Record<string, unknown>, headers = admin.headers) => post("/internal/verify-phone-number", params, headers);
/** Sends what is due and answers the codes the provider got, by user id. */
const sendSms = async () => {
  while ((await worker.tick()) > 0);
  return inbox;
};
const codeOf = async (userId: number) => {
  const sms = (await sendSms()).filter((s) => s.body.data.user_id === userId);
  return sms.at(-1)!.body.data.code as string;
};
const statusOf = async (userId: number) => (await core.db.select().from(users).where(eq(users.id, userId)))[0]!.phoneNumberStatus;
const pendingRow = async (userId: number) => (await core.db.select().from(phoneVerifications).where(eq(phoneVerifications.userId, userId)))[0];
const errorOf = (r: { status: number; body: any }) => [r.status, r.body.error?.code, r.body.error?.name];
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("the code by SMS", () => {
  it("signup sends a signed phone_number_verification event with a six-digit code to the chain's SMS provider", async () => {
    const wakesBefore = wakes;
    const added = await addUser({ phone_number: "06 12345678" });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const user = added.body.results.user;
    expect(user).toMatchObject({ phone_number: "+31612345678", phone_number_status: 2 });
    expect(wakes).toBe(wakesBefore + 1);
    const [row] = await core.db.select().from(outbox);
    expect(row).toMatchObject({ kind: "webhook", eventType: "phone_number_verification", chainId: core.chainId });
    expect(row!.expiresAt!.getTime() - clock.now.getTime()).toBe(600_000);

    const [sms] = await sendSms();
    expect(sms).toMatchObject({ key: row!.deliveryId, authorization: `Bearer ${API_KEY}`, signatureValid: true });
    expect(sms!.body).toEqual({
      id: row!.deliveryId,
      type: "phone_number_verification",
      created_date: "2026-01-01T09:00:00Z",
      chain_id: core.chainId,
      sender: "Loyalty",
      data: {
        user_id: user.id,
        phone_number: "+31612345678",
        code: expect.stringMatching(/^\d{6}$/),
        expires_date: "2026-01-01T09:10:00Z",
        message: expect.stringContaining(sms!.body.data.code),
      },
    });
    // stored hashed only
    const pending = await pendingRow(user.id);
    expect(pending).toMatchObject({ phoneNumber: "+31612345678", attempts: 0, verifiedDate: null });
    expect(pending!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(pending)).not.toContain(sms!.body.data.code);
    expect(await core.db.select().from(outbox)).toEqual([]);
  });

  it("the right code verifies the number (status 3), and again the same; get-user shows it", async () => {
    const user = (await addUser()).body.results.user;
    const code = await codeOf(user.id);
    const ok = await verify({ user_id: user.id, code });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.results).toMatchObject({ result_type: "verify-phone-number", user: { id: user.id, phone_number_status: 3 } });
    expect((await verify({ user_id: user.id, code })).body.results.user.phone_number_status).toBe(3);
    const read = await core.json(`/internal/get-user?user_id=${user.id}`, { headers: admin.headers });
    expect(read.body.results.user.phone_number_status).toBe(3);
    // re-submitting the verified number keeps it verified and sends nothing
    await alterUser({ user_id: user.id, phone_number: user.phone_number });
    expect(await statusOf(user.id)).toBe(3);
    expect(await sendSms()).toHaveLength(1);
  });

  it("a phone change or a re-submitted number sends a new code that replaces the previous one", async () => {
    const user = (await addUser()).body.results.user;
    const first = await codeOf(user.id);
    const changed = await alterUser({ user_id: user.id, phone_number: "+31687654321" });
    expect(changed.body.results.user).toMatchObject({ phone_number: "+31687654321", phone_number_status: 2 });
    const second = await codeOf(user.id);
    clock.now = new Date(clock.now.getTime() + 60_000); // the number's send interval
    await alterUser({ user_id: user.id, phone_number: "06 87654321" }); // the same number again: a resend
    const third = await codeOf(user.id);
    expect(inbox.filter((s) => s.body.data.user_id === user.id).map((s) => s.body.data.phone_number)).toEqual([user.phone_number, "+31687654321", "+31687654321"]);
    for (const old of [first, second].filter((c) => c !== third)) {
      expect(errorOf(await verify({ user_id: user.id, code: old }))).toEqual([400, 905, "phone_verification_code_invalid"]);
    }
    expect((await verify({ user_id: user.id, code: third })).status).toBe(200);
  });

  it("sends nothing without verify_phone_numbers, below version 1.6.3, or without a phone number", async () => {
    const before = inbox.length;
    const old = await addUser({}, "1.6.1");
    expect([old.status, old.body.results?.user.phone_number_status]).toEqual([200, 0]);
    expect((await addUser({ phone_number: undefined, username: "nophone@example.com" })).status).toBe(200);
    const other = await core.createChain("No verification");
    const otherAdmin = await core.admin({ assign: true }, other);
    const { "X-Service-Chain-ID": _c, ...headers } = otherAdmin.headers;
    const elsewhere = await post("/internal/add-user", { chain_id: other, username: "x@example.com", country_code: "NL", phone_number: "0612345699" }, headers);
    expect([elsewhere.status, elsewhere.body.results?.user.phone_number_status]).toEqual([200, 2]);
    expect(await core.db.select().from(outbox)).toEqual([]);
    expect(await core.db.select().from(phoneVerifications).where(eq(phoneVerifications.chainId, other))).toEqual([]);
    expect((await sendSms()).length).toBe(before);
  });

  it("a provider failing (500, then down) gets the same SMS again after the back-off, and sends it once", async () => {
    const user = (await addUser()).body.results.user;
    failures = ["500", "down"];
    const start = clock.now;
    try {
      expect(await worker.tick()).toBe(1);
      expect(await worker.tick()).toBe(0); // not due yet: back-off
      for (let i = 0; i < 2; i++) {
        const [row] = await core.db.select().from(outbox);
        expect(row!.attempts).toBe(i + 1);
        clock.now = row!.nextAttemptAt;
        expect(await worker.tick()).toBe(1);
      }
    } finally {
      clock.now = start;
    }
    const sms = inbox.filter((s) => s.body.data.user_id === user.id);
    expect(sms).toHaveLength(1);
    expect(repeats).toBe(0);
    expect(sms[0]!.signatureValid).toBe(true);
    expect(await core.db.select().from(outbox)).toEqual([]);
    expect((await verify({ user_id: user.id, code: sms[0]!.body.data.code })).status).toBe(200);
  });
});

describe("refusals", () => {
  it("a wrong code is 905 and counts; the fifth wrong one uses the code up: then 907, even for the right code", async () => {
    const user = (await addUser()).body.results.user;
    const code = await codeOf(user.id);
    for (let i = 1; i <= 5; i++) {
      const res = await verify({ user_id: user.id, code: wrong(code) });
      expect(errorOf(res)).toEqual([400, 905, "phone_verification_code_invalid"]);
      expect(res.body.error.description).toContain(`${5 - i} ${5 - i === 1 ? "try" : "tries"} left`);
      expect((await pendingRow(user.id))!.attempts).toBe(i);
    }
    expect(errorOf(await verify({ user_id: user.id, code }))).toEqual([429, 907, "phone_verification_attempts_exceeded"]);
    expect(await statusOf(user.id)).toBe(2);
    // a new code (re-submitted number, once the send interval passed) starts again
    clock.now = new Date(clock.now.getTime() + 60_000);
    await alterUser({ user_id: user.id, phone_number: user.phone_number });
    expect((await verify({ user_id: user.id, code: await codeOf(user.id) })).status).toBe(200);
  });

  it("a code older than 10 minutes is 906", async () => {
    const user = (await addUser()).body.results.user;
    const code = await codeOf(user.id);
    const start = clock.now;
    clock.now = new Date(start.getTime() + 600_000);
    try {
      expect(errorOf(await verify({ user_id: user.id, code }))).toEqual([400, 906, "phone_verification_code_expired"]);
    } finally {
      clock.now = start;
    }
    expect(await statusOf(user.id)).toBe(2);
  });

  it("no code pending (never sent, number cleared, verified with another code) is 908", async () => {
    const old = (await addUser({}, "1.6.1")).body.results.user;
    expect(errorOf(await verify({ user_id: old.id, code: "123456" }))).toEqual([409, 908, "phone_verification_not_pending"]);
    const cleared = (await addUser()).body.results.user;
    const code = await codeOf(cleared.id);
    await alterUser({ user_id: cleared.id, phone_number: "" });
    expect(await pendingRow(cleared.id)).toBeUndefined();
    expect(errorOf(await verify({ user_id: cleared.id, code }))).toEqual([409, 908, "phone_verification_not_pending"]);
    const done = (await addUser()).body.results.user;
    const right = await codeOf(done.id);
    await verify({ user_id: done.id, code: right });
    expect(errorOf(await verify({ user_id: done.id, code: wrong(right) }))).toEqual([409, 908, "phone_verification_not_pending"]);
  });

  it("bad parameters and callers: 441, 419, 68; nothing changes", async () => {
    const user = (await addUser()).body.results.user;
    const code = await codeOf(user.id);
    const before = JSON.stringify(await pendingRow(user.id));
    expect(errorOf(await verify({ user_id: user.id }))).toEqual([400, 441, "parameter_missing"]);
    expect(errorOf(await verify({ code }))).toEqual([400, 441, "parameter_missing"]);
    for (const bad of ["12345", "1234567", "12a456", " 123456"]) expect(errorOf(await verify({ user_id: user.id, code: bad })), bad).toEqual([400, 419, "parameter_invalid"]);
    expect(errorOf(await verify({ user_id: "seven", code }))).toEqual([400, 419, "parameter_invalid"]);
    expect(errorOf(await verify({ user_id: 99_999_999, code }))).toEqual([403, 68, "permission_denied_or_non_existent"]);
    const reader = await core.admin({ read: true });
    expect(errorOf(await verify({ user_id: user.id, code }, reader.headers))).toEqual([403, 68, "permission_denied_or_non_existent"]);
    const res = await core.json("/internal/verify-phone-number", { method: "GET", headers: admin.headers });
    expect(res.body.error.code).toBe(13);
    expect(JSON.stringify(await pendingRow(user.id))).toBe(before);
    expect(await statusOf(user.id)).toBe(2);
  });

  it("a shopper verifies their own number, never another user's", async () => {
    const password = "Shopper-pass-2026";
    const me = (await addUser({ password })).body.results.user;
    const other = (await addUser()).body.results.user;
    const code = await codeOf(me.id);
    const otherCode = await codeOf(other.id);
    const app = await shopperSession(me.username, password);
    expect(errorOf(await verify({ user_id: other.id, code: otherCode }, app))).toEqual([403, 68, "permission_denied_or_non_existent"]);
    const ok = await verify({ code }, app);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await statusOf(me.id)).toBe(3);
    expect(await statusOf(other.id)).toBe(2);
  });
});

describe("racing attempts", () => {
  it("two right codes at once both verify; eight wrong ones at once count exactly five", async () => {
    const user = (await addUser()).body.results.user;
    const code = await codeOf(user.id);
    const both = await Promise.all([verify({ user_id: user.id, code }), verify({ user_id: user.id, code })]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(await statusOf(user.id)).toBe(3);

    const target = (await addUser()).body.results.user;
    const right = await codeOf(target.id);
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify({ user_id: target.id, code: wrong(right) })));
    const codes = answers.map((r) => r.body.error?.code).sort();
    expect(codes).toEqual([905, 905, 905, 905, 905, 907, 907, 907]);
    const left = answers.filter((r) => r.body.error?.code === 905).map((r) => r.body.error.description.match(/(\d) tr/)![1]).sort();
    expect(left).toEqual(["0", "1", "2", "3", "4"]);
    expect((await pendingRow(target.id))!.attempts).toBe(5);
  });

  it("a right and a wrong code at once: the right one verifies whatever the order, the wrong one is refused", async () => {
    const user = (await addUser()).body.results.user;
    const code = await codeOf(user.id);
    const [a, b] = await Promise.all([verify({ user_id: user.id, code }), verify({ user_id: user.id, code: wrong(code) })]);
    expect(a.status).toBe(200);
    expect([905, 908]).toContain(b.body.error?.code);
    expect(await statusOf(user.id)).toBe(3);
  });
});

/** A shopper session through the chain's app (created once). */
async function shopperSession(username: string, password: string): Promise<Record<string, string>> {
  if (!appCreated) {
    await createAppHostname(core.db, core.chainId, APP);
    appCreated = true;
  }
  const login = await core.json("/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", "X-Service-App-Hostname": APP },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`shopper login: ${JSON.stringify(login.body)}`);
  const info = login.body.results.session_info;
  return { "X-Service-Session-User-ID": String(info.session_user_id), "X-Service-Session-Key": info.session_key, "X-Service-App-Hostname": APP };
}
