/**
 * add-user's `if_unmodified_since` (shared/src/internal/add-user.ts): with update_if_exists the
 * existing user is updated only when its last_modified_date is not later than the moment given;
 * otherwise nothing is written and the answer is the user as stored with precondition_failed.
 * Both outcomes, both datetime forms, a new user, bad input (419, nothing written), and writers
 * racing with the same condition (exactly one wins; the others answer the winner's version).
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { addUserAsAdmin, call, NOW, seedRange, userRow, WEBSHOP, writtenRows, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile(async () => {
  await seedRange(w.core, w.core.chainId, "generated", 300000n, 399999n);
});

let seq = 0;
const email = (what: string) => `cond-${what}-${++seq}@example.com`;

/** Statements of the world's database waiting for a user's row lock (lockUser's SELECT ... FOR UPDATE), this one's left out. */
async function lockWaits(): Promise<number> {
  const [rows] = (await w.core.db.$client.query(
    "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID() AND command = 'Query' AND info LIKE 'select %from `users`%for update'",
    [w.core.dbName],
  )) as unknown as [Array<{ n: number }>];
  return Number(rows[0]!.n);
}

/** The world's clock is NOW (10:00:00 UTC); the member was last modified an hour before. */
const HOUR_BEFORE = new Date(NOW.getTime() - 3_600_000);

/** A user of the chain whose last_modified_date is HOUR_BEFORE; its id and username. */
async function memberModifiedHourBefore(what: string): Promise<{ id: number; username: string }> {
  const username = email(what);
  const added = await addUserAsAdmin(w, { username, first_name: "Before", authentication_point_identifier: `ap-${username}` });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const id = added.body.results.user.id as number;
  await w.core.db.execute(sql`UPDATE users SET last_modified_date = ${HOUR_BEFORE} WHERE id = ${id}`);
  return { id, username };
}

describe("add-user if_unmodified_since: the condition holds", () => {
  it("not modified after the moment (equal counts as not after): updated, precondition_failed false", async () => {
    const { id, username } = await memberModifiedHourBefore("holds");
    const { status, body } = await addUserAsAdmin(w, { username, update_if_exists: true, first_name: "After", if_unmodified_since: "2026-11-21 09:00:00" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ user_type: "registered", updated_existing_user: true, precondition_failed: false });
    expect(body.results.user).toMatchObject({ id, first_name: "After" });
    expect((await userRow(w.core, id))!.lastModifiedDate).toEqual(NOW);
  });

  it("RFC 3339 with an offset names the same moment", async () => {
    const { id, username } = await memberModifiedHourBefore("rfc");
    const { body } = await addUserAsAdmin(w, { username, update_if_exists: true, first_name: "Offset", if_unmodified_since: "2026-11-21T11:00:00+02:00" });
    expect(body.results).toMatchObject({ updated_existing_user: true, precondition_failed: false });
    expect((await userRow(w.core, id))!.firstName).toBe("Offset");
  });

  it("no user matches: a new user is created as usual", async () => {
    const { status, body } = await addUserAsAdmin(w, { username: email("new"), update_if_exists: true, first_name: "New", if_unmodified_since: "2000-01-01T00:00:00Z" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ user_type: "new", updated_existing_user: false, precondition_failed: false });
    expect(body.results.user.first_name).toBe("New");
  });

  it("without the parameter the answer has no precondition_failed (as before)", async () => {
    const { username } = await memberModifiedHourBefore("plain");
    const { body } = await addUserAsAdmin(w, { username, update_if_exists: true, first_name: "Plain" });
    expect(body.results.updated_existing_user).toBe(true);
    expect(body.results).not.toHaveProperty("precondition_failed");
  });
});

describe("add-user if_unmodified_since: the user changed later", () => {
  it("nothing is written; the answer is the user as stored with precondition_failed true", async () => {
    const { id, username } = await memberModifiedHourBefore("fails");
    const stored = await addUserAsAdmin(w, { username, update_if_exists: true, first_name: "PlatformNewer" });
    expect(stored.body.results.user.first_name).toBe("PlatformNewer");
    const before = await writtenRows(w.core);
    const { status, body } = await addUserAsAdmin(w, {
      username, update_if_exists: true, first_name: "ShopOlder", phone_number: "+31 6 12121212", if_unmodified_since: "2026-11-21 09:59:59",
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ user_type: "registered", updated_existing_user: false, precondition_failed: true, referring_user: null });
    expect(body.results.user).toEqual(stored.body.results.user);
    expect(await writtenRows(w.core)).toBe(before);
    expect((await userRow(w.core, id))!.firstName).toBe("PlatformNewer");
  });

  it("through the webshop's privileged token (the reconcile's call) the same", async () => {
    const { id, username } = await memberModifiedHourBefore("token");
    await w.core.db.execute(sql`UPDATE users SET last_modified_date = ${NOW}, first_name = 'PlatformNewer' WHERE id = ${id}`);
    const before = await writtenRows(w.core);
    const { status, body } = await call(w.core, "POST", "/internal/add-user", { ...w.identityToken, "X-Service-App-Hostname": WEBSHOP }, {
      username, authentication_point_identifier: `ap-${username}`, update_if_exists: true, first_name: "ShopOlder", if_unmodified_since: HOUR_BEFORE.toISOString(),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ precondition_failed: true, updated_existing_user: false });
    expect(body.results.user).toMatchObject({ id, first_name: "PlatformNewer" });
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user if_unmodified_since: bad input is 419 (400), nothing written", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["empty", { if_unmodified_since: "", update_if_exists: true }],
    ["not a datetime", { if_unmodified_since: "yesterday", update_if_exists: true }],
    ["an impossible date", { if_unmodified_since: "2026-02-30 10:00:00", update_if_exists: true }],
    ["a number", { if_unmodified_since: 1_700_000_000, update_if_exists: true }],
    ["without update_if_exists", { if_unmodified_since: "2026-11-21 09:00:00" }],
    ["with update_if_exists false", { if_unmodified_since: "2026-11-21 09:00:00", update_if_exists: false }],
    ["for an admin user", { if_unmodified_since: "2026-11-21 09:00:00", update_if_exists: true, permission_read: true, password: "long enough password" }],
  ];
  it.each(cases)("%s", async (_what, params) => {
    const { username } = await memberModifiedHourBefore("bad");
    const before = await writtenRows(w.core);
    const { status, body } = await addUserAsAdmin(w, { username, first_name: "Changed", ...params } as never);
    expect([status, body.error?.code, body.error?.name], JSON.stringify(body)).toEqual([400, 419, "parameter_invalid"]);
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user if_unmodified_since: bad user input is refused whether the user changed later or not", () => {
  it.each([
    ["an invalid phone number", { phone_number: "12", country_code: "NL" }, 547],
    ["a postal code of another country's form", { address_postalcode: "ABC", country_code: "NL" }, 278],
  ])("%s: %i, nothing written", async (_what, params, code) => {
    const { username } = await memberModifiedHourBefore("badfield");
    const before = await writtenRows(w.core);
    for (const since of ["2026-11-21 08:00:00", "2026-11-21 09:00:00"]) {
      const { body } = await addUserAsAdmin(w, { username, update_if_exists: true, if_unmodified_since: since, ...params });
      expect(body.error?.code, `${since} ${JSON.stringify(body)}`).toBe(code);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("add-user if_unmodified_since: the user found is deleted before it is locked", () => {
  it("the request starts over and sees the users as they are now: a new user, the deleted one no phone number's other holder", async () => {
    const username = email("vanish");
    const phone = { phone_number: "+31 6 12349901" };
    const v163 = { "X-Service-API-version": "1.6.3" };
    const first = await addUserAsAdmin(w, { username, ...phone }, "json", v163);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const goneId = first.body.results.user.id as number;
    // another transaction holds the user's row: the conditional write finds the user, then waits to lock it
    const locker = await w.core.db.$client.getConnection();
    let request: ReturnType<typeof addUserAsAdmin> | undefined;
    try {
      await locker.query("START TRANSACTION");
      await locker.query("SELECT id FROM users WHERE id = ? FOR UPDATE", [goneId]);
      request = addUserAsAdmin(w, { username, update_if_exists: true, first_name: "Again", if_unmodified_since: "2026-11-21 09:00:00", ...phone }, "json", v163);
      for (let i = 0; i < 200 && (await lockWaits()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await lockWaits()).toBe(1);
      await locker.query("DELETE FROM users WHERE id = ?", [goneId]);
      await locker.query("COMMIT");
    } finally {
      await locker.query("ROLLBACK");
      locker.release();
    }
    const { status, body } = await request!;
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toMatchObject({ user_type: "new", updated_existing_user: false, precondition_failed: false });
    expect(body.results.user).toMatchObject({ username, first_name: "Again", phone_number_duplicate: false });
    expect(body.results.user.id).not.toBe(goneId);
  });
});

describe("add-user if_unmodified_since: racing writers", () => {
  it("of 12 writers with the same moment exactly one updates; the others answer its version", async () => {
    const { id, username } = await memberModifiedHourBefore("race");
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => addUserAsAdmin(w, {
      username, update_if_exists: true, first_name: `Writer${i}`, if_unmodified_since: "2026-11-21 09:00:00",
    })));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const winners = results.filter((r) => r.body.results.precondition_failed === false);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.body.results.user;
    expect(winners[0]!.body.results.updated_existing_user).toBe(true);
    for (const loser of results.filter((r) => r.body.results.precondition_failed === true)) {
      expect(loser.body.results.updated_existing_user).toBe(false);
      expect(loser.body.results.user).toEqual(winner);
    }
    expect((await userRow(w.core, id))!.firstName).toBe(winner.first_name);
  });
});
