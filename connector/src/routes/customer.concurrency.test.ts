/**
 * POST /rest/V1/service/customer/update with create_if_not_exists under concurrency: simultaneous
 * updates of one username all succeed and leave one customer with one address, one subscription and
 * one service data row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../test-support/harness.ts";

const UPDATE = "/rest/V1/service/customer/update";
const PARALLEL = 30;
let h: Harness;

beforeAll(async () => {
  h = await startHarness("webshop_race");
});
afterAll(async () => {
  await h?.close();
});

const userInfo = (i: number) => ({
  username: "race@example.com",
  first_name: `Racer ${i}`,
  last_name: "Parallel",
  address_streetname: "Raceway",
  address_housenumber: String(i + 1),
  address_towncity: "Utrecht",
  country_code: "NL",
  mailing_list: { mailing_list_subscribed: true },
  opt_in_programme: { programme_opted_in: true },
});

describe("update: create_if_not_exists under concurrency", () => {
  it(`${PARALLEL} parallel updates of one new username all succeed and leave one customer`, async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => h.call("POST", UPDATE, { user_info: userInfo(i), create_if_not_exists: true })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(200));
    const customers = await h.rows("customer_entity", "email = 'race@example.com'");
    expect(customers).toHaveLength(1);
    const id = customers[0].entity_id;
    expect(new Set(answers.map((a) => a.body.id))).toEqual(new Set([id]));
    // The writes of each request happened whole, one after another: one of each row, and the
    // stored names are those of one request throughout.
    expect(await h.rows("customer_address_entity", `parent_id = ${id}`)).toHaveLength(1);
    expect(await h.rows("newsletter_subscriber", `customer_id = ${id}`)).toHaveLength(1);
    expect(await h.rows("service_customer_data", `customer_id = ${id}`)).toHaveLength(1);
    const [address] = await h.rows("customer_address_entity", `parent_id = ${id}`);
    expect(address.firstname).toBe(customers[0].firstname);
  });
});
