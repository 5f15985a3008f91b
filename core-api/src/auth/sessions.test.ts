/**
 * Expired sessions are deleted: each login deletes a bounded batch of sessions that expired, never
 * a live one.
 */
import { gt, lte } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { sessions } from "../db/schema.ts";
import { createAdmin, grantAccess } from "../db/seed.ts";
import { createSession, EXPIRED_SESSIONS_BATCH } from "./sessions.ts";

const now = new Date("2026-06-01T12:00:00Z");
let core: TestCore;
beforeAll(async () => {
  core = await startCore({ clock: () => now });
});
afterAll(() => core.close());
// The tests count the sessions in the table: each starts with none.
beforeEach(async () => {
  await core.db.delete(sessions);
});

const HOUR = 3_600_000;
const expired = async () => (await core.db.select().from(sessions).where(lte(sessions.expiresAt, now))).length;
const live = async () => (await core.db.select().from(sessions).where(gt(sessions.expiresAt, now))).map((s) => s.id).sort();

async function login(username: string) {
  return core.json("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password: "pw-secret" }) });
}

describe("expired sessions", () => {
  it(`each login deletes up to ${EXPIRED_SESSIONS_BATCH} expired sessions and no live one`, async () => {
    const adminId = await createAdmin(core.db, { username: "sessions@example.com", password: "pw-secret" });
    await grantAccess(core.db, adminId, core.chainId, { read: true });
    const past = new Date(now.getTime() - 48 * HOUR);
    const stale = EXPIRED_SESSIONS_BATCH + 30;
    for (let i = 0; i < stale; i++) await createSession(core.db, "admin", adminId, past, HOUR);
    // one that expires exactly now is dead too (a session lives while expires_at > now)
    await createSession(core.db, "end_user", adminId, new Date(now.getTime() - HOUR), HOUR, core.chainId);
    await createSession(core.db, "admin", adminId, now, HOUR);
    const liveBefore = await live();
    expect(liveBefore).toHaveLength(1);
    expect(await expired()).toBe(stale + 1);

    const first = await login("sessions@example.com");
    expect(first.status).toBe(200);
    expect(await expired()).toBe(stale + 1 - EXPIRED_SESSIONS_BATCH);
    const liveAfter = await live();
    expect(liveAfter).toHaveLength(2); // the one before and the new login's
    expect(liveAfter).toEqual(expect.arrayContaining(liveBefore));

    expect((await login("sessions@example.com")).status).toBe(200);
    expect(await expired()).toBe(0);
    expect(await live()).toHaveLength(3);
  });

  it("a failed login deletes nothing", async () => {
    await createSession(core.db, "admin", 1, new Date(now.getTime() - 48 * HOUR), HOUR);
    expect((await login("nobody@example.com")).status).toBe(401);
    expect(await expired()).toBe(1);
  });
});
