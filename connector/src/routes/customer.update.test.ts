/**
 * POST /rest/V1/service/customer/update over HTTP against a real database: responses and the
 * rows written (spec, "Webshop connector endpoints", update rules), and a platform user_info
 * older than the one already stored left unapplied.
 */
import { customerSchema } from "@service/shared/connector";
import { userInfoHash } from "@service/shared/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyMagentoPassword } from "../customers/magento-password.ts";
import { addWebsite, snapshot, startHarness, TEST_CHAIN_ID, type Harness } from "../test-support/harness.ts";

const UPDATE = "/rest/V1/service/customer/update";
let h: Harness;
/** a second website of the chain: tests create customers in it, or name it for customers that exist */
let shop2: { websiteId: number; storeId: number };

beforeAll(async () => {
  h = await startHarness("webshop_update");
  shop2 = await addWebsite(h, "second", TEST_CHAIN_ID);
});
afterAll(async () => {
  await h?.close();
});

/**
 * Takes away a website addWebsite added, with its store views, group and chain: a test that adds
 * another chain leaves the shop with one, as the requests without service_chain_id need it.
 */
async function removeWebsite(websiteId: number): Promise<void> {
  for (const table of ["service_chain_website", "store", "store_group", "store_website"]) {
    await h.exec(`DELETE FROM ${table} WHERE website_id = ?`, [websiteId]);
  }
}

const fullUserInfo = {
  id: 1001,
  user_id: 1001,
  member_number: "M1001",
  username: "ann@example.com",
  password: "Str0ng-pass!",
  first_name: "Ann",
  last_name: "de Vries",
  birthday: "1990-05-06",
  gender: "female",
  address_streetname: "Oudegracht",
  address_housenumber: "12",
  address_housenumber_extension: "bis",
  address_postalcode: "3511 AB",
  address_regionstate: "Utrecht",
  address_towncity: "Utrecht",
  country_code: "NL",
  phone_number: "+31612345678",
  entity_code: { code: "abc", type: "user" },
  mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: true, printed_mailing_list_subscribed: false },
  opt_in_programme: { programme_opted_in: true },
  some_other_get_user_key: "ignored",
};

/**
 * Creates a customer of the test's own from fullUserInfo, with its own user_id, member number
 * (`M<userId>`) and email, so that no test needs a customer another test made.
 */
async function createFull(userId: number, email: string, changes: Record<string, unknown> = {}): Promise<any> {
  const res = await h.call("POST", UPDATE, {
    user_info: { ...fullUserInfo, id: userId, user_id: userId, member_number: `M${userId}`, username: email, ...changes },
    create_if_not_exists: true, service_chain_id: TEST_CHAIN_ID,
  });
  expect(res.status).toBe(200);
  return res.body;
}

describe("update: create", () => {
  it("creates a customer with address, subscription and service data, and returns the customer object", async () => {
    const res = await h.call("POST", UPDATE, { user_info: fullUserInfo, create_if_not_exists: true });
    expect(res.status).toBe(200);
    expect(customerSchema.parse(res.body)).toEqual(res.body); // exactly the spec's keys
    const c = res.body;
    // stamped with the (fake) clock's time, as "2026-03-10 09:00:00" when no test has moved it on
    const stamp = h.now().toISOString().slice(0, 19).replace("T", " ");
    expect(c).toMatchObject({
      email: "ann@example.com", firstname: "Ann", lastname: "de Vries", dob: "1990-05-06", gender: 2,
      website_id: h.base.websiteId, store_id: h.base.storeId, group_id: 1, created_in: "Default Store View", disable_auto_group_change: 0,
      created_at: stamp, updated_at: stamp,
    });
    expect(c.addresses).toEqual([{
      id: expect.any(Number), customer_id: c.id, region: { region_code: null, region: "Utrecht", region_id: 0 }, region_id: 0,
      country_id: "NL", street: ["Oudegracht", "12", "bis"], telephone: "+31612345678", postcode: "3511 AB", city: "Utrecht",
      firstname: "Ann", lastname: "de Vries", default_shipping: true, default_billing: true,
    }]);
    expect(c.default_billing).toBe(String(c.addresses[0].id));
    expect(c.extension_attributes).toEqual({
      is_subscribed: true,
      service_data: {
        customer_id: c.id, user_id: 1001, member_number: "M1001", programme_opted_in: true,
        mailing_list_subscribed: true, printed_mailing_list_subscribed: false, last_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });

    const [row] = await h.rows("customer_entity", `entity_id = ${c.id}`);
    expect(row).toMatchObject({ email: "ann@example.com", website_id: h.base.websiteId, gender: 2, failures_num: 0 });
    expect(row.password_hash).toMatch(/^[0-9a-f]{64}:[A-Za-z0-9]{32}:3_32_2_67108864$/);
    expect(await verifyMagentoPassword("Str0ng-pass!", row.password_hash)).toBe(true);
    const [addr] = await h.rows("customer_address_entity", `parent_id = ${c.id}`);
    expect(addr.street).toBe("Oudegracht\n12\nbis");
    const [sub] = await h.rows("newsletter_subscriber", `customer_id = ${c.id}`);
    expect(sub).toMatchObject({ subscriber_status: 1, subscriber_email: "ann@example.com", store_id: h.base.storeId });
    const [svc] = await h.rows("service_customer_data", `customer_id = ${c.id}`);
    expect(svc).toMatchObject({ service_chain_id: TEST_CHAIN_ID, user_id: 1001, member_number: "M1001", programme_opted_in: 1, mailing_list_sub_offered: 1 });

    // last_hash is the hash of what the user info read returns now.
    const read = await h.call("GET", `/rest/V1/service/customer/user_info/${c.id}`);
    expect(svc.last_hash).toBe(await userInfoHash(read.body));
  });

  it("resolves a region of the directory to its id", async () => {
    await h.exec("INSERT INTO directory_country_region (country_id, code, default_name) VALUES ('DE', 'BY', 'Bayern')");
    const res = await h.call("POST", UPDATE, {
      user_info: { username: "bavaria@example.com", country_code: "DE", address_regionstate: "BY", address_towncity: "München" },
      create_if_not_exists: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.addresses[0].region).toEqual({ region_code: "BY", region: "Bayern", region_id: expect.any(Number) });
    expect(res.body.addresses[0].region_id).toBeGreaterThan(0);
  });

  it("creates in the given website and store", async () => {
    const res = await h.call("POST", UPDATE, {
      user_info: { username: "second@example.com", first_name: "Sec" },
      create_if_not_exists: true, website_code: "second", store_code: "second_store", service_chain_id: TEST_CHAIN_ID,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ website_id: shop2.websiteId, store_id: shop2.storeId, created_in: "second store view", addresses: [] });
    expect(res.body.extension_attributes.is_subscribed).toBe(false);
    expect(await h.rows("newsletter_subscriber", `customer_id = ${res.body.id}`)).toEqual([]);
  });
});

describe("update: identification", () => {
  it("finds by user_id first and ignores website_code / store_code for existing customers", async () => {
    const created = await createFull(1101, "found@example.com");
    const res = await h.call("POST", UPDATE, {
      user_info: { user_id: 1101, first_name: "Anna", username: "found.again@example.com" }, website_code: "second", store_code: "second_store",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, firstname: "Anna", email: "found.again@example.com", website_id: h.base.websiteId, lastname: "de Vries" });
    const [sub] = await h.rows("newsletter_subscriber", `customer_id = ${res.body.id}`);
    expect(sub.subscriber_email).toBe("found.again@example.com");
    // the address follows the customer's names
    expect(res.body.addresses[0]).toMatchObject({ firstname: "Anna", street: ["Oudegracht", "12", "bis"] });
  });

  it("finds by member_number when user_id finds nothing", async () => {
    await createFull(1102, "by-member@example.com");
    const res = await h.call("POST", UPDATE, { user_info: { user_id: 999999, member_number: "M1102", last_name: "Jansen" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: "by-member@example.com", lastname: "Jansen" });
    // user_id 999999 found nothing; the customer stays linked to its own user
    expect(res.body.extension_attributes.service_data.user_id).toBe(1102);
  });

  it("finds by username and saves user_id and member_number on the customer", async () => {
    const created = await h.call("POST", UPDATE, { user_info: { username: "bob@example.com", first_name: "Bob" }, create_if_not_exists: true });
    expect(created.body.extension_attributes.service_data).toMatchObject({ user_id: null, member_number: null });
    const res = await h.call("POST", UPDATE, { user_info: { user_id: 2002, member_number: "", username: "BOB@example.com", member_number_x: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.body.id);
    const linked = await h.call("POST", UPDATE, { user_info: { user_id: 2002, member_number: "M2002", gender: "male" } });
    expect(linked.body).toMatchObject({ id: created.body.id, gender: 1 });
    const [svc] = await h.rows("service_customer_data", `customer_id = ${created.body.id}`);
    expect(svc).toMatchObject({ user_id: 2002, member_number: "M2002" });
  });

  it("finds by authentication_point_identifier (the webshop customer id) and links the user", async () => {
    const created = await h.call("POST", UPDATE, { user_info: { username: "carl@example.com" }, create_if_not_exists: true });
    const res = await h.call("POST", UPDATE, {
      user_info: { user_id: 3003, member_number: "M3003", username: "", authentication_point_identifier: String(created.body.id), phone_number: "+3120" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.body.id, email: "carl@example.com" });
    expect(res.body.extension_attributes.service_data).toMatchObject({ user_id: 3003, member_number: "M3003" });
    expect(res.body.addresses).toHaveLength(1);
    expect(res.body.addresses[0]).toMatchObject({ telephone: "+3120", street: [] });
  });

  it("skips an empty user_id (or id) as it skips an empty member_number: the next key finds, the link stays", async () => {
    const created = await h.call("POST", UPDATE, { user_info: { user_id: 4004, member_number: "M4004", username: "dora@example.com" }, create_if_not_exists: true });
    expect(created.status).toBe(200);
    const variants = [
      { user_id: "", member_number: "M4004" },
      { user_id: "  ", id: "", member_number: "M4004" },
      { user_id: "", member_number: " ", username: "dora@example.com" },
    ];
    for (const [i, user_info] of variants.entries()) {
      const res = await h.call("POST", UPDATE, { user_info: { ...user_info, last_name: `Empty ${i}` } });
      expect(res.status, JSON.stringify(user_info)).toBe(200);
      expect(res.body).toMatchObject({ id: created.body.id, lastname: `Empty ${i}` });
      expect(res.body.extension_attributes.service_data).toMatchObject({ user_id: 4004, member_number: "M4004" });
    }
    const [svc] = await h.rows("service_customer_data", `customer_id = ${created.body.id}`);
    expect(svc).toMatchObject({ user_id: 4004, member_number: "M4004" });

    // A new customer sent an empty user_id has none, like one sent an empty member_number.
    const fresh = await h.call("POST", UPDATE, { user_info: { user_id: "", member_number: "", username: "emil@example.com" }, create_if_not_exists: true });
    expect(fresh.status).toBe(200);
    expect(fresh.body.extension_attributes.service_data).toMatchObject({ user_id: null, member_number: null });
    // Only blank is skipped: a user_id that is not a number is still refused.
    const bad = await h.call("POST", UPDATE, { user_info: { user_id: "abc", member_number: "M4004" } });
    expect(bad).toMatchObject({ status: 400, body: { parameters: { fieldName: "user_info.user_id" } } });
  });

  it("clears values given as null or empty and keeps absent ones", async () => {
    await createFull(1103, "clears@example.com");
    const res = await h.call("POST", UPDATE, {
      user_info: { user_id: 1103, birthday: null, gender: "", address_housenumber_extension: null, mailing_list: { mailing_list_subscribed: false } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dob: null, gender: null, firstname: "Ann" });
    expect(res.body.addresses[0].street).toEqual(["Oudegracht", "12"]);
    expect(res.body.extension_attributes.is_subscribed).toBe(false);
    const [sub] = await h.rows("newsletter_subscriber", `customer_id = ${res.body.id}`);
    expect(sub.subscriber_status).toBe(3);
  });
});

describe("update: errors change nothing", () => {
  it("404 Customer not found without create_if_not_exists", async () => {
    const before = await snapshot(h);
    const res = await h.call("POST", UPDATE, { user_info: { user_id: 424242, username: "nobody@example.com" } });
    expect(res).toEqual({ status: 404, body: { message: "Customer not found" } });
    expect(await snapshot(h)).toEqual(before);
  });

  it("400 for invalid input, naming the field", async () => {
    const before = await snapshot(h);
    const cases: Array<[unknown, string]> = [
      [{}, "user_info"],
      [{ user_info: { username: "not-an-email" } }, "user_info.username"],
      [{ user_info: { gender: "robot" } }, "user_info.gender"],
      [{ user_info: { country_code: "NLD" } }, "user_info.country_code"],
      [{ user_info: { user_id: 1001 }, create_if_not_exists: "yes" }, "create_if_not_exists"],
      [{ user_info: { user_id: 1001, birthday: "2001-02-30" } }, "birthday"],
      [{ user_info: { first_name: "No email" }, create_if_not_exists: true }, "user_info.username"],
    ];
    for (const [body, field] of cases) {
      const res = await h.call("POST", UPDATE, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.parameters?.fieldName, JSON.stringify(body)).toBe(field);
      expect(typeof res.body.message).toBe("string");
    }
    // a field present with the wrong type says what it must be, not that it is required
    const maybe = await h.call("POST", UPDATE, { user_info: { user_id: 1001 }, create_if_not_exists: "maybe" });
    expect(maybe).toEqual({ status: 400, body: { message: 'Invalid value for "%fieldName": %reason', parameters: { fieldName: "create_if_not_exists", reason: "must be a boolean" } } });
    const info = await h.call("POST", UPDATE, { user_info: "dora" });
    expect(info.body).toEqual({ message: 'Invalid value for "%fieldName": %reason', parameters: { fieldName: "user_info", reason: "must be an object" } });
    expect(await snapshot(h)).toEqual(before);
  });

  it("400 for an unconfigured chain, an unknown website or store, or a website of another chain", async () => {
    const other = await addWebsite(h, "other", 2);
    try {
      const before = await snapshot(h);
      const base = { user_info: { username: "new@example.com" }, create_if_not_exists: true };
      const chain9 = await h.call("POST", UPDATE, { ...base, service_chain_id: 9 });
      expect(chain9).toEqual({ status: 400, body: { message: "Service chain %chainId is not configured in this shop.", parameters: { chainId: 9 } } });
      expect((await h.call("POST", UPDATE, { ...base, service_chain_id: 1, website_code: "nope" })).status).toBe(400);
      const foreign = await h.call("POST", UPDATE, { ...base, service_chain_id: 1, website_code: "other" });
      expect(foreign.status).toBe(400);
      expect(foreign.body.parameters).toEqual({ websiteCode: "other", chainId: 1 });
      expect((await h.call("POST", UPDATE, { ...base, service_chain_id: 1, store_code: "other_store" })).status).toBe(400);
      expect(await snapshot(h)).toEqual(before);
    } finally {
      await removeWebsite(other.websiteId);
    }
  });

  it("400 without service_chain_id when several chains are configured", async () => {
    await createFull(1104, "chains@example.com");
    const chain2 = await addWebsite(h, "chain2", 2);
    try {
      const res = await h.call("POST", UPDATE, { user_info: { user_id: 1104, first_name: "X" } });
      expect(res).toEqual({ status: 400, body: { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: "service_chain_id" } } });
      const ok = await h.call("POST", UPDATE, { user_info: { user_id: 1104, first_name: "Anna" }, service_chain_id: "1" });
      expect(ok.status).toBe(200);
    } finally {
      await removeWebsite(chain2.websiteId);
    }
  });

  it("400 when the email or member number belongs to another customer, with every write rolled back", async () => {
    // unsubscribed, so that the subscription below is one of the writes rolled back
    await createFull(1105, "taken@example.com", { mailing_list: { ...fullUserInfo.mailing_list, mailing_list_subscribed: false } });
    const bob = await h.call("POST", UPDATE, {
      user_info: { user_id: 2105, member_number: "M2105", username: "bob.taken@example.com", first_name: "Bob" }, create_if_not_exists: true, service_chain_id: 1,
    });
    expect(bob.status).toBe(200);
    const before = await snapshot(h);
    const email = await h.call("POST", UPDATE, { user_info: { user_id: 1105, username: "bob.taken@example.com", first_name: "Changed" }, service_chain_id: 1 });
    expect(email.status).toBe(400);
    expect(email.body.message).toContain("same email address");
    // found by user_id 1105; member number M2105 is Bob's: the unique index fires after other writes
    const member = await h.call("POST", UPDATE, {
      user_info: { user_id: 1105, member_number: "M2105", first_name: "Changed", address_towncity: "Amsterdam", mailing_list: { mailing_list_subscribed: true } },
      service_chain_id: 1,
    });
    expect(member).toEqual({ status: 400, body: { message: "The %fieldName is already linked to another customer.", parameters: { fieldName: "member_number" } } });
    expect(await snapshot(h)).toEqual(before);
  });
});

describe("update: a platform user_info older than the one stored is left unapplied", () => {
  const member = { user_id: 7007, member_number: "M7007", username: "stale@example.com" };
  const send = (user_info: Record<string, unknown>, of: Record<string, unknown> = member) =>
    h.call("POST", UPDATE, { user_info: { ...of, ...user_info }, service_chain_id: TEST_CHAIN_ID });
  const stored = async (id: number) => {
    const [customer] = await h.rows("customer_entity", `entity_id = ${id}`);
    const [service] = await h.rows("service_customer_data", `customer_id = ${id}`);
    return { customer, service };
  };

  it("leaves the customer as it is for an older last_modified_date, answering it (200) and writing nothing; an equal or newer one applies", async () => {
    const created = await h.call("POST", UPDATE, {
      user_info: { ...member, first_name: "Second", password: "Second-pass-1", address_towncity: "Utrecht", last_modified_date: "2026-03-10 10:00:05" },
      create_if_not_exists: true, service_chain_id: TEST_CHAIN_ID,
    });
    expect(created.status).toBe(200);
    const id: number = created.body.id;
    expect((await stored(id)).service.platform_modified_at).toEqual(new Date("2026-03-10T10:00:05Z"));

    // A delivery of the state before, arriving late (both date formats of get-user).
    h.advance(60_000);
    for (const older of ["2026-03-10 10:00:04", "2026-03-10T09:59:59Z"]) {
      const before = await snapshot(h);
      const stale = await send({
        first_name: "First", password: "First-pass-1", address_towncity: "Amsterdam", mailing_list: { mailing_list_subscribed: true }, last_modified_date: older,
      });
      expect(stale, older).toEqual({ status: 200, body: created.body });
      expect(await snapshot(h), older).toEqual(before);
    }
    expect(await verifyMagentoPassword("Second-pass-1", (await stored(id)).customer.password_hash)).toBe(true);

    // The same second: a later change within the platform's resolution still applies.
    const equal = await send({ first_name: "Third", password: "Third-pass-1", last_modified_date: "2026-03-10T10:00:05Z" });
    expect(equal.body).toMatchObject({ id, firstname: "Third" });
    expect(await verifyMagentoPassword("Third-pass-1", (await stored(id)).customer.password_hash)).toBe(true);

    const newer = await send({ first_name: "Fourth", address_towncity: "Amsterdam", last_modified_date: "2026-03-10 10:00:06" });
    expect(newer.body).toMatchObject({ id, firstname: "Fourth", addresses: [expect.objectContaining({ city: "Amsterdam" })] });
    const after = await stored(id);
    expect(after.service.platform_modified_at).toEqual(new Date("2026-03-10T10:00:06Z"));
    expect(after.service.last_hash).toBe(await userInfoHash((await h.call("GET", `/rest/V1/service/customer/user_info/${id}`)).body));
    // Now 10:00:05 is the older one.
    const before = await snapshot(h);
    expect((await send({ first_name: "Third again", last_modified_date: "2026-03-10 10:00:05" })).body).toMatchObject({ id, firstname: "Fourth" });
    expect(await snapshot(h)).toEqual(before);
  });

  it("judges only a user_info of the member the customer is linked to, and one that carries its time", async () => {
    // A customer of its own, its member's time stored.
    const linked = { user_id: 7009, member_number: "M7009", username: "timed@example.com" };
    const created = await h.call("POST", UPDATE, {
      user_info: { ...linked, first_name: "Timed", last_modified_date: "2026-03-10 10:00:06" }, create_if_not_exists: true, service_chain_id: TEST_CHAIN_ID,
    });
    expect(created.status).toBe(200);
    // Without last_modified_date there is nothing to compare: it applies.
    const untimed = await send({ first_name: "Untimed" }, linked);
    expect(untimed.body).toMatchObject({ id: created.body.id, firstname: "Untimed" });
    // Another member's user_info, found by the email, is not compared with this member's time
    // (found by username, the customer is linked to that member: the spec's update rules).
    const other = await h.call("POST", UPDATE, {
      user_info: { user_id: 7008, member_number: "M7008", username: "timed@example.com", first_name: "Other member", last_modified_date: "2026-03-10 08:00:00" },
      service_chain_id: TEST_CHAIN_ID,
    });
    expect(other.body).toMatchObject({ id: untimed.body.id, firstname: "Other member" });
    expect(other.body.extension_attributes.service_data).toMatchObject({ user_id: 7008, member_number: "M7008" });
  });
});
