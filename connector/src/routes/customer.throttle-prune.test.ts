/**
 * The throttle tables' housekeeping (customers/address-throttle.ts pruneOver), run after a
 * successful authenticate at most once a minute on a database (pruneDue): rows whose window and
 * lock are over go, in batches of PRUNE_BATCH up to PRUNE_BATCHES per prune, so a table that grew
 * by more than a batch a minute (many client addresses, many reset pairs) still shrinks; counters
 * and pairs still counting or still locked stay. Over HTTP against a real database, with the harness's clock;
 * the DELETE statements are counted on the wire (test/helpers/statements.ts), so one unbounded
 * DELETE or a prune that stops after its first batch fails here.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRUNE_BATCH, PRUNE_BATCHES, PRUNE_INTERVAL_MS, WINDOW_MS } from "../customers/address-throttle.ts";
import { setConfig, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";
import { countStatements, type StatementCounter } from "../../../test/helpers/statements.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
const UPDATE = "/rest/V1/service/customer/update";
/** lockout_threshold in minutes: a pair's window */
const THRESHOLD_MINUTES = 5;
let h: Harness;
let counter: StatementCounter;

beforeAll(async () => {
  h = await startHarness("webshop_prune");
  await setConfig(h, "customer/password/lockout_failures", "3");
  await setConfig(h, "customer/password/lockout_threshold", String(THRESHOLD_MINUTES));
  const res = await h.call("POST", UPDATE, { user_info: { username: "prune@example.com", password: "Right-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
  counter = countStatements(h.database.pool);
});
afterAll(async () => {
  await h?.close();
});

const hash = (text: string) => createHash("sha256").update(text).digest("hex");
const at = (msAgo: number) => new Date(h.now().getTime() - msAgo);

/** Inserts `count` rows into a throttle table, all with the same window start and lock. */
async function seed(table: "service_authenticate_throttle" | "service_authenticate_lockout", label: string, count: number, windowStartedAt: Date, lockedUntil: Date | null) {
  const rows = Array.from({ length: count }, (_, i) => (table === "service_authenticate_throttle"
    ? [hash(`${label}-${i}`), 1, windowStartedAt, lockedUntil]
    : [1_000_000 + i, hash(label), 1, windowStartedAt, lockedUntil]));
  const columns = table === "service_authenticate_throttle" ? "address_hash, failures, window_started_at, locked_until" : "customer_id, address_hash, failures, window_started_at, locked_until";
  const marks = rows.map((r) => `(${r.map(() => "?").join(", ")})`).join(", ");
  await h.exec(`INSERT INTO ${table} (${columns}) VALUES ${marks}`, rows.flat());
}

const count = async (table: string) => (await h.rows(table)).length;

/**
 * A successful login from a fresh address: it settles, then runs the prunes that are due.
 * @returns the DELETE statements it sent to each throttle table
 */
async function succeed(from: string): Promise<{ counters: number; pairs: number }> {
  counter.reset();
  const res = await fetch(`${h.url}${AUTH}`, {
    method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TEST_TOKEN}`, "x-forwarded-for": from },
    body: JSON.stringify({ email: "prune@example.com", password: "Right-pass1" }),
  });
  expect(((await res.json()) as { authenticated: boolean }).authenticated).toBe(true);
  const deletes = (table: string) => counter.statements.filter((q) => new RegExp(`^\\s*DELETE FROM \`?${table}\`?\\s`).test(q)).length;
  return { counters: deletes("service_authenticate_throttle"), pairs: deletes("service_authenticate_lockout") };
}

describe("the prune after a success", () => {
  it("deletes over rows in full batches up to its bound, the rest a minute later, and keeps what still counts or is locked", async () => {
    const bound = PRUNE_BATCH * PRUNE_BATCHES;
    // Address counters: more over than one batch; some in their window; some over but locked.
    await seed("service_authenticate_throttle", "over", PRUNE_BATCH * 2 + 37, at(WINDOW_MS + 60_000), null);
    await seed("service_authenticate_throttle", "counting", 4, at(60_000), null);
    await seed("service_authenticate_throttle", "locked", 3, at(WINDOW_MS + 60_000), at(-60_000));
    // Pairs: more over than one prune's bound; some in their window; some over but locked.
    const overPairs = bound + 120;
    await seed("service_authenticate_lockout", "over", overPairs, at(THRESHOLD_MINUTES * 60_000 + 1), null);
    await seed("service_authenticate_lockout", "counting", 5, at(60_000), null);
    await seed("service_authenticate_lockout", "locked", 2, at(THRESHOLD_MINUTES * 60_000 + 1), at(-60_000));

    // Every over counter went in 3 batches (the last one not full, so no fourth); the pairs' prune
    // stopped at its bound, after PRUNE_BATCHES full ones.
    expect(await succeed("198.51.100.7")).toEqual({ counters: 3, pairs: PRUNE_BATCHES });
    expect(await count("service_authenticate_throttle")).toBe(4 + 3 + 1); // + the login's own counter, settled
    // Of the seeded over pairs and the login's own, reset (its window over), `bound` went.
    const pairsLeft = overPairs + 1 - bound + 5 + 2;
    expect(await count("service_authenticate_lockout")).toBe(pairsLeft);

    // Within the minute no prune runs again.
    h.advance(PRUNE_INTERVAL_MS - 1);
    expect(await succeed("198.51.100.8")).toEqual({ counters: 0, pairs: 0 });
    expect(await count("service_authenticate_lockout")).toBe(pairsLeft + 1); // + this login's reset pair

    // A minute on, the next success prunes the rest: the pairs the logins reset among them, its own too.
    h.advance(1);
    // One batch each: no counter is over, and the pairs left fit in one.
    expect(await succeed("198.51.100.9")).toEqual({ counters: 1, pairs: 1 });
    const pairs = await h.rows("service_authenticate_lockout");
    expect(pairs.map((p) => p.address_hash).sort()).toEqual([...Array(5).fill(hash("counting")), ...Array(2).fill(hash("locked"))].sort());
    expect(await count("service_authenticate_throttle")).toBe(4 + 3 + 3);
  });
});
