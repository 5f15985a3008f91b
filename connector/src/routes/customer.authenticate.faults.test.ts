/**
 * The connector's authenticate under the conflicts a Galera cluster raises on single statements:
 * each of 1213 (deadlock / certification conflict), 1205 and 1047 put at each statement the call
 * writes on its own (test/helpers/fault-injection.ts, autocommit writes): the per-address counter
 * (customers/address-throttle.ts), the per-customer lockout (customers/customer-throttle.ts),
 * their prunes and the success's reset of Magento's lockout columns (customers/authenticate.ts).
 * Each statement is run again by the transaction runner's runStatement, so the answer is the one
 * without the fault and every counter counts the attempt exactly once.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectFaults, type Fault, type FaultInjector } from "../../../test/helpers/fault-injection.ts";
import { PRUNE_INTERVAL_MS } from "../customers/address-throttle.ts";
import { AUTH_MESSAGES } from "../customers/authenticate.ts";
import { isFreshPair, setConfig, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
const UPDATE = "/rest/V1/service/customer/update";
const CONFLICTS = ["deadlock", "lock_wait", "not_ready"] as const;
let h: Harness;
let faults: FaultInjector;

beforeAll(async () => {
  h = await startHarness("webshop_auth_faults");
  await setConfig(h, "customer/password/lockout_failures", "3");
  await setConfig(h, "customer/password/lockout_threshold", "5");
  faults = injectFaults(h.database.pool);
});
afterAll(async () => {
  await h?.close();
});

let seq = 0;
async function authenticate(from: string, email: string, password: string) {
  const headers = { "content-type": "application/json", "x-forwarded-for": from, authorization: `Bearer ${TEST_TOKEN}` };
  const res = await fetch(`${h.url}${AUTH}`, { method: "POST", headers, body: JSON.stringify({ email, password }) });
  return { status: res.status, body: (await res.json()) as any };
}

/** A new customer whose Magento lockout columns hold a failure (a success must clear them). */
async function newCustomer(): Promise<{ id: number; email: string }> {
  const email = `faulty-${++seq}@example.com`;
  const res = await h.call("POST", UPDATE, { user_info: { username: email, password: "Right-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
  await h.exec("UPDATE customer_entity SET failures_num = 1, first_failure = ? WHERE entity_id = ?", [h.now(), res.body.id]);
  return { id: res.body.id, email };
}

const hashOf = (from: string) => createHash("sha256").update(`address:${from}`).digest("hex");
const pairOf = async (customerId: number, from: string) =>
  (await h.rows("service_authenticate_lockout", `customer_id = ${customerId} AND address_hash = '${hashOf(from)}'`))[0];
const addressOf = async (from: string) => (await h.rows("service_authenticate_throttle", `address_hash = '${hashOf(from)}'`))[0];

/** One authenticate under `arm`, each time with the prunes due (the clock a prune interval on). */
async function attempt(password: string, arm: () => void) {
  const customer = await newCustomer();
  const from = `198.51.100.${++seq % 250}`;
  h.advance(PRUNE_INTERVAL_MS + 1);
  arm();
  const res = await authenticate(from, customer.email, password).finally(() => faults.disarm());
  return { customer, from, res, seen: faults.seen, injected: faults.injected };
}

describe("authenticate's single statements under conflicts", () => {
  for (const right of [false, true]) {
    it(`${right ? "the right password: authenticated, the counters afresh, Magento's lockout columns cleared" : "a wrong password: refused, counted once per counter"}, whichever statement met the conflict`, async () => {
      const password = right ? "Right-pass1" : "wrong-pass";
      const clean = await attempt(password, () => faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER, autocommitWrites: true }));
      expect(clean.res.status).toBe(200);
      const writes = clean.seen;
      expect(writes).toBeGreaterThanOrEqual(right ? 4 : 3);
      for (const fault of CONFLICTS) {
        for (let at = 1; at <= writes; at++) {
          const { customer, from, res, injected } = await attempt(password, () => faults.arm({ fault, at, autocommitWrites: true }));
          const label = `${fault} at ${at} (${injected} injected): ${res.status} ${JSON.stringify(res.body)}`;
          expect(injected, label).toBe(1);
          expect(res.status, label).toBe(200);
          const [row] = await h.rows("customer_entity", `entity_id = ${customer.id}`);
          if (right) {
            expect(res.body, label).toMatchObject({ authenticated: true, customer_id: customer.id });
            expect(isFreshPair(await pairOf(customer.id, from)), label).toBe(true);
            expect(await addressOf(from), label).toMatchObject({ failures: 0, pending: 0 });
            expect(row, label).toMatchObject({ failures_num: 0, first_failure: null });
          } else {
            expect(res.body, label).toMatchObject({ authenticated: false, message: AUTH_MESSAGES.invalid });
            expect(await pairOf(customer.id, from), label).toMatchObject({ failures: 1 });
            expect(await addressOf(from), label).toMatchObject({ failures: 1, pending: 0 });
            expect(row, label).toMatchObject({ failures_num: 1 });
          }
        }
      }
    }, 60_000);
  }
});

describe("a success whose settle fails takes back only what surely was not settled", () => {
  // Another attempt from the same address is in flight throughout (pending 1 before the login):
  // taking this login's attempt back a second time would take that one's.
  // (A settle refused to the end is taken back as well: transaction-runner.test.ts mayHaveApplied.)
  const cases: Array<{ fault: Fault; at: RegExp; pending: number; pairFailures: number; why: string }> = [
    { fault: "answer_lost", at: /^\s*update \(select 1 as one\) as login/i, pending: 1, pairFailures: 0, why: "the settle applied, its answer lost: nothing taken back again" },
    { fault: "lost", at: /^\s*update \(select 1 as one\) as login/i, pending: 2, pairFailures: 1, why: "the settle may have applied: both left to their windows" },
    { fault: "lost", at: /^update `customer_entity`/i, pending: 1, pairFailures: 0, why: "no settle yet (the customer's row failed): both taken back" },
  ];
  for (const c of cases) {
    it(`${c.fault} at ${c.at.source.includes("customer") ? "the customer's update" : "the settle"}: 503, ${c.why}`, async () => {
      // Where the statement falls among the login's writes, from a clean login of the same kind.
      const probe = await newCustomer();
      faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER, autocommitWrites: true });
      expect((await authenticate(`198.51.100.${++seq % 250}`, probe.email, "Right-pass1").finally(() => faults.disarm())).body.authenticated).toBe(true);
      const at = faults.statements.findIndex((statement) => c.at.test(statement)) + 1;
      expect(at, faults.statements.join("\n")).toBeGreaterThan(0);

      const customer = await newCustomer();
      const from = `198.51.100.${++seq % 250}`;
      await h.exec("INSERT INTO service_authenticate_throttle (address_hash, failures, pending, window_started_at, locked_until) VALUES (?, 0, 1, ?, NULL)", [hashOf(from), h.now()]);
      faults.arm({ fault: c.fault, at, autocommitWrites: true });
      const res = await authenticate(from, customer.email, "Right-pass1").finally(() => faults.disarm());
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(await addressOf(from)).toMatchObject({ failures: 0, pending: c.pending });
      expect(await pairOf(customer.id, from)).toMatchObject({ failures: c.pairFailures, locked_until: null });
    }, 30_000);
  }
});

describe("the prunes after a success", () => {
  for (const table of ["service_authenticate_lockout", "service_authenticate_throttle"]) {
    it(`a lost connection at the prune of ${table} leaves the login authenticated and settled`, async () => {
      // Where the prune's DELETE falls among a login's writes, from a clean login with the prunes due.
      const deleting = new RegExp(`^\\s*delete from \`?${table}\\b`, "i");
      await attempt("Right-pass1", () => faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER, autocommitWrites: true }));
      const at = faults.statements.findIndex((statement) => deleting.test(statement)) + 1;
      expect(at, faults.statements.join("\n")).toBeGreaterThan(0);

      const { customer, from, res, injected } = await attempt("Right-pass1", () => faults.arm({ fault: "lost", at, autocommitWrites: true }));
      expect(injected).toBe(1);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ authenticated: true, customer_id: customer.id });
      expect(isFreshPair(await pairOf(customer.id, from))).toBe(true);
      expect(await addressOf(from)).toMatchObject({ failures: 0, pending: 0 });
    }, 30_000);
  }
});
