/**
 * Fault injection into the connector's update (create or update a customer) through the
 * transaction runner (@service/shared/node): each of 1213, 1205, 1047 and a lost connection at
 * each statement of its transaction, COMMIT included (test/helpers/fault-injection.ts). The answer
 * is 200 after the retry with the customer written exactly once (one customer, one address, one
 * subscription, one service row); a fault that lasts answers 503 with Retry-After and writes
 * nothing; a COMMIT whose answer was lost answers 503 and is not written again. Never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULTS, injectFaults, type Fault, type FaultInjector } from "../../../test/helpers/fault-injection.ts";
import { startHarness, type Harness } from "../test-support/harness.ts";

const UPDATE = "/rest/V1/service/customer/update";
let h: Harness;
let faults: FaultInjector;

beforeAll(async () => {
  // A short deadline: a fault that lasts is answered 503 after it, while an update with one fault
  // and its retry (back-off from 5 ms; tens of ms on a busy 2-core machine) ends well within it.
  h = await startHarness("webshop_faults", { requestDeadlineMs: 800 });
  faults = injectFaults(h.database.pool);
});
afterAll(async () => {
  await h?.close();
});

const userInfo = (i: number, firstName: string) => ({
  id: 5000 + i, user_id: 5000 + i, username: `fault-${i}@example.com`, first_name: firstName, last_name: "Fout",
  address_streetname: "Oudegracht", address_housenumber: "12", address_postalcode: "3511 AB", address_towncity: "Utrecht", country_code: "NL",
  mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: true, printed_mailing_list_subscribed: false },
});
const markers = async () => (await h.rows("transaction_marker")).length;

/** How often each part of customer `i` is stored, and its first name. */
async function stored(i: number) {
  const customers = await h.rows("customer_entity", `email = 'fault-${i}@example.com'`);
  const id = customers[0]?.entity_id ?? 0;
  return {
    customers: customers.length,
    addresses: (await h.rows("customer_address_entity", `parent_id = ${id}`)).length,
    subscriptions: (await h.rows("newsletter_subscriber", `customer_id = ${id}`)).length,
    service: (await h.rows("service_customer_data", `customer_id = ${id}`)).length,
    firstName: customers[0]?.firstname ?? null,
  };
}
const once = (firstName: string) => ({ customers: 1, addresses: 1, subscriptions: 1, service: 1, firstName });
const none = { customers: 0, addresses: 0, subscriptions: 0, service: 0, firstName: null };

let seq = 0;
type Expected = "ok" | "unavailable" | "committed";

/** Creates (or, with `existing`, updates) customer `i` under `arm` and checks answer and rows. */
async function attempt(arm: () => void, expected: Expected, existing: boolean) {
  const i = ++seq;
  if (existing) expect((await h.call("POST", UPDATE, { user_info: userInfo(i, "Eerst"), create_if_not_exists: true })).status).toBe(200);
  const before = await markers();
  arm();
  const res = await h.call("POST", UPDATE, { user_info: userInfo(i, "Daarna"), create_if_not_exists: true }).finally(() => faults.disarm());
  const label = `#${i} ${expected} ${arm.toString().slice(6, 60)} (${faults.injected} injected, ${faults.seen} seen): ${res.status} ${JSON.stringify(res.body)}`;
  const committed = (await markers()) - before;
  if (expected === "ok") {
    expect(res.status, label).toBe(200);
    expect(await stored(i), label).toEqual(once("Daarna"));
    expect(committed, label).toBe(1);
  } else {
    expect(res.status, label).toBe(503);
    expect(await stored(i), label).toEqual(expected === "committed" ? once("Daarna") : existing ? once("Eerst") : none);
    expect(committed, label).toBe(expected === "committed" ? 1 : 0);
  }
  return faults.seen;
}

describe("the connector's update under faults", () => {
  for (const existing of [false, true]) {
    it(`${existing ? "updates" : "creates"} once: 200 after a fault at any statement, 503 when it lasts or the COMMIT's answer is lost`, async () => {
      const statements = await attempt(() => faults.arm({ fault: "deadlock", at: Number.MAX_SAFE_INTEGER }), "ok", existing);
      expect(statements).toBeGreaterThanOrEqual(5);
      for (const fault of FAULTS.filter((f) => f !== "answer_lost") as Fault[]) {
        for (let at = 1; at <= statements; at++) await attempt(() => faults.arm({ fault, at }), "ok", existing);
        await attempt(() => faults.arm({ fault, at: 1, every: true }), "unavailable", existing);
      }
      await attempt(() => faults.arm({ fault: "answer_lost", atCommit: true }), "committed", existing);
    }, 180_000);
  }
});
