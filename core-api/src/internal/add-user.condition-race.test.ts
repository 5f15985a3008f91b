/**
 * add-user's if_unmodified_since when the user is not later than the moment as the write reads it
 * (users/save-user.ts): one optimistic UPDATE checks and writes. Another transaction that holds
 * the row and changes it meanwhile makes that UPDATE match nothing; the row is then locked, read
 * again and checked again: a later change wins (precondition_failed, its version the answer), a
 * change that is not later is written over as planned from the row now stored, a deleted user
 * makes the request start over (a new user). And what it costs: a conditional update of a user
 * holding the member number sent takes the statements a plain update takes (no lock, no range read).
 */
import { sql } from "drizzle-orm";
import type { PoolConnection } from "mysql2/promise";
import { describe, expect, it } from "vitest";
import { call, NOW, seedRange, userRow, WEBSHOP, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile(async () => {
  await seedRange(w.core, w.core.chainId, "generated", 300000n, 399999n);
});

let seq = 0;
const HOUR_BEFORE = new Date(NOW.getTime() - 3_600_000);
/** The moment the requests send: the member's last_modified_date (not later: the condition holds as read). */
const SINCE = HOUR_BEFORE.toISOString();

/** add-user as the webshop's connector sends it (identity-source token, its app's hostname). */
function fromWebshop(params: Record<string, string | boolean | null>) {
  return call(w.core, "POST", "/internal/add-user", { ...w.identityToken, "X-Service-App-Hostname": WEBSHOP }, { update_if_exists: true, ...params });
}

/** A member linked to webshop customer `key`, last modified an hour before NOW; its id, username and member number. */
async function member(key: string): Promise<{ id: number; username: string; memberNumber: string; ap: string }> {
  const username = `race-${key}-${++seq}@example.com`;
  const ap = `ap-${username}`;
  const added = await fromWebshop({ username, authentication_point_identifier: ap, first_name: "Before" });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const id = added.body.results.user.id as number;
  await w.core.db.execute(sql`UPDATE users SET last_modified_date = ${HOUR_BEFORE} WHERE id = ${id}`);
  return { id, username, memberNumber: added.body.results.user.member_number as string, ap };
}

/** Writes of users in the world's database waiting for a row lock (an UPDATE, or a locking read), this connection's left out. */
async function updateWaits(): Promise<number> {
  const [rows] = (await w.core.db.$client.query(
    "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID() AND command IN ('Query', 'Execute') AND (info LIKE 'update `users`%' OR info LIKE 'select %from `users`%for update')",
    [w.core.dbName],
  )) as unknown as [Array<{ n: number }>];
  return Number(rows[0]!.n);
}

/**
 * Sends `request` while another transaction holds user `id`'s row, waits until the request's
 * write waits for it, then lets `change` run in that transaction and commits it.
 */
async function racedBy<T>(id: number, request: () => Promise<T>, change: (locker: PoolConnection) => Promise<unknown>): Promise<T> {
  const locker = await w.core.db.$client.getConnection();
  let sent: Promise<T> | undefined;
  try {
    await locker.query("START TRANSACTION");
    await locker.query("SELECT id FROM users WHERE id = ? FOR UPDATE", [id]);
    sent = request();
    for (let i = 0; i < 200 && (await updateWaits()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await updateWaits()).toBe(1);
    await change(locker);
    await locker.query("COMMIT");
  } finally {
    await locker.query("ROLLBACK");
    locker.release();
  }
  return sent!;
}

describe("add-user if_unmodified_since: the user changes between the write's read and its UPDATE", () => {
  it("a later change wins: nothing written, the answer is that change with precondition_failed", async () => {
    const m = await member("later");
    const { status, body } = await racedBy(m.id,
      () => fromWebshop({ username: m.username, authentication_point_identifier: m.ap, member_number: m.memberNumber, first_name: "Shop", if_unmodified_since: SINCE }),
      (locker) => locker.query("UPDATE users SET first_name = 'Platform', last_modified_date = ? WHERE id = ?", [NOW, m.id]));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ precondition_failed: true, updated_existing_user: false });
    expect(body.results.user).toMatchObject({ id: m.id, first_name: "Platform" });
    expect((await userRow(w.core, m.id))!.firstName).toBe("Platform");
  });

  it("a change that is not later is written over, as planned from the row now stored (its cleared referral code renewed)", async () => {
    const m = await member("same");
    const { status, body } = await racedBy(m.id,
      () => fromWebshop({ username: m.username, authentication_point_identifier: m.ap, first_name: "Shop", if_unmodified_since: SINCE }),
      (locker) => locker.query("UPDATE users SET first_name = 'Other', referral_code = NULL WHERE id = ?", [m.id]));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ precondition_failed: false, updated_existing_user: true });
    expect(body.results.user).toMatchObject({ id: m.id, first_name: "Shop" });
    const stored = (await userRow(w.core, m.id))!;
    expect(stored.firstName).toBe("Shop");
    expect(stored.referralCode).toMatch(/^[0-9A-Z]{8}$/);
    expect(body.results.user.referral_code).toBe(stored.referralCode);
  });

  it("a deleted user: the request starts over and creates the user anew", async () => {
    const m = await member("gone");
    const { status, body } = await racedBy(m.id,
      () => fromWebshop({ username: m.username, authentication_point_identifier: m.ap, first_name: "Again", if_unmodified_since: SINCE }),
      (locker) => locker.query("DELETE FROM users WHERE id = ?", [m.id]));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ user_type: "new", precondition_failed: false });
    expect(body.results.user).toMatchObject({ username: m.username, first_name: "Again" });
    expect(body.results.user.id).not.toBe(m.id);
  });
});

describe("add-user if_unmodified_since: statements", () => {
  it("an update with the member's own member number takes a plain update's statements: no lock, no range read", async () => {
    const m = await member("count");
    const base = { username: m.username, authentication_point_identifier: m.ap };
    await fromWebshop({ ...base, first_name: "Warm" });
    w.core.statements.reset();
    expect((await fromWebshop({ ...base, first_name: "Plain" })).status).toBe(200);
    const plain = w.core.statements.statements;
    const since = (await userRow(w.core, m.id))!.lastModifiedDate.toISOString();
    w.core.statements.reset();
    const conditional = await fromWebshop({ ...base, member_number: m.memberNumber, first_name: "Conditional", if_unmodified_since: since });
    expect(conditional.body.results).toMatchObject({ precondition_failed: false, updated_existing_user: true });
    const sent = w.core.statements.statements;
    expect(sent.filter((s) => /for update/i.test(s) || /member_number_ranges/.test(s)), sent.join("\n")).toEqual([]);
    expect(sent.length, sent.join("\n")).toBe(plain.length);
  });
});
