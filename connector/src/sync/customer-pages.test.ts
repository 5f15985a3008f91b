/**
 * The reconcile's pages (customer-pages.ts) read exactly the user info the connector's reads
 * return (customers/read-user-info.ts): same object, same hash, for customers of every shape.
 */
import { userInfoHash, userInfoHasher } from "@service/shared/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readUserInfoById } from "../customers/read-user-info.ts";
import { userInfoObject } from "../customers/mapping.ts";
import { addWebsite, startHarness, type Harness } from "../test-support/harness.ts";
import { loadCustomerPage } from "./customer-pages.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness("pages");
});
afterAll(() => h?.close());

async function create(userInfo: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await h.call("POST", "/rest/V1/service/customer/update", { create_if_not_exists: true, user_info: userInfo, ...extra });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe("loadCustomerPage", () => {
  it("gives every customer the user info object and hash the reads give, page by page in id order", async () => {
    const ids: number[] = [];
    ids.push(await create({
      username: "full@example.com", first_name: "Zoë", last_name: "Ünal", birthday: "1985-12-31", gender: "nonbinary",
      address_streetname: "Straße", address_housenumber: "12", address_housenumber_extension: "b", address_postalcode: "10115",
      address_towncity: "Berlin", country_code: "DE", phone_number: "+49301234567", user_id: 9001, member_number: "77",
      mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: true, printed_mailing_list_subscribed: false },
      opt_in_programme: { programme_opted_in: true },
    }));
    ids.push(await create({ username: "bare@example.com" }));
    ids.push(await create({ username: "phone@example.com", phone_number: "+31612345678", mailing_list_subscribed: false }));
    // A second address that is default shipping only, and one customer on another chain's website.
    await h.exec(
      "INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, street, telephone) VALUES (?, 'Gent', 'BE', '', '', 'Veldstraat\n3', '')",
      [ids[1]],
    );
    const [shipping] = await h.rows("customer_address_entity", `parent_id = ${ids[1]}`);
    await h.exec("UPDATE customer_entity SET default_shipping = ? WHERE entity_id = ?", [shipping.entity_id, ids[1]]);
    expect((await readUserInfoById(h.database.db, ids[1]!)).address_towncity).toBe("Gent");
    // A second, later subscription row and a second address for the first customer: one customer still.
    await h.exec("INSERT INTO newsletter_subscriber (store_id, customer_id, subscriber_email, subscriber_status) VALUES (?, ?, 'full@example.com', 3)", [h.base.storeId, ids[0]]);
    await h.exec("INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, street, telephone) VALUES (?, 'Köln', 'DE', '', '', 'Ring\n1', '')", [ids[0]]);
    expect(await h.rows("newsletter_subscriber", `customer_id = ${ids[0]}`)).toHaveLength(2);
    const other = await addWebsite(h, "elsewhere", 2);
    // The other website's customer lies between two of this chain's in id order, with rows in every table.
    const otherId = await create({ username: "other@example.com", first_name: "Other", mailing_list_subscribed: true }, { service_chain_id: 2, website_code: "elsewhere" });
    await h.exec("INSERT INTO customer_address_entity (parent_id, city, country_id, firstname, lastname, street, telephone) VALUES (?, 'Lille', 'FR', '', '', 'Rue\n9', '')", [otherId]);
    expect(await h.rows("newsletter_subscriber", `customer_id = ${otherId}`)).toHaveLength(1);
    expect(await h.rows("service_customer_data", `customer_id = ${otherId}`)).toHaveLength(1);
    ids.push(await create({ username: "last@example.com", first_name: "Last", programme_opted_in: false }, { service_chain_id: 1 }));

    const seen: number[] = [];
    let after = 0;
    for (;;) {
      const page = await loadCustomerPage(h.database.db, [h.base.websiteId], after, 2);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(2);
      for (const scanned of page) {
        const read = await readUserInfoById(h.database.db, scanned.customer.entityId);
        expect(userInfoObject(scanned)).toEqual(read);
        expect(userInfoHasher()(userInfoObject(scanned))).toBe(userInfoHash(read));
        expect(scanned.addresses.map((a) => a.entityId))
          .toEqual((await h.rows("customer_address_entity", `parent_id = ${scanned.customer.entityId} ORDER BY entity_id`)).map((a) => a.entity_id));
        const [row] = await h.rows("customer_entity", `entity_id = ${scanned.customer.entityId}`);
        expect(scanned.customer.createdAt).toEqual(row.created_at);
        expect(scanned.customer.updatedAt).toEqual(row.updated_at);
        for (const a of scanned.addresses) {
          expect(a.updatedAt).toEqual((await h.rows("customer_address_entity", `entity_id = ${a.entityId}`))[0].updated_at);
        }
        seen.push(scanned.customer.entityId);
      }
      after = page[page.length - 1]!.customer.entityId;
    }
    expect(seen).toEqual(ids);
    expect(other.websiteId).not.toBe(h.base.websiteId);
    expect((await loadCustomerPage(h.database.db, [other.websiteId], 0, 10)).map((c) => c.customer.email)).toEqual(["other@example.com"]);
    expect(await loadCustomerPage(h.database.db, [], 0, 10)).toEqual([]);
  });

  it("a page whose connection is lost mid-page fails with the statement's own error, not the closing statement's", async () => {
    // A second website of the chain, with customers of its own: the other test pages through the
    // chain's first website only, and new customers without a website_code still go there.
    const site = await addWebsite(h, "lost", 1);
    for (const username of ["lost1@example.com", "lost2@example.com"]) {
      await create({ username, first_name: "Lost", mailing_list_subscribed: true }, { service_chain_id: 1, website_code: "lost" });
    }
    const pool = h.database.db.$client;
    /** the errors of the page's statements sent after the connection went away */
    const lost: unknown[] = [];
    // The pool hands out a connection that goes away under the page's second statement (the
    // three after the first are queued together).
    const db = {
      $client: {
        getConnection: async () => {
          const conn = await pool.getConnection();
          const query = conn.query.bind(conn);
          let statements = 0;
          conn.query = ((...args: Parameters<typeof query>) => {
            const n = ++statements; // 1: START TRANSACTION, 2: the customers, 3-5: the rest
            if (n === 3) conn.destroy();
            if (n < 3 || n > 5) return query(...args);
            return query(...args).catch((err: unknown) => {
              lost.push(err);
              throw err;
            });
          }) as typeof conn.query;
          return conn;
        },
      },
    } as unknown as typeof h.database.db;
    const failure = await loadCustomerPage(db, [site.websiteId], 0, 10).then(() => null, (err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(lost).toContain(failure);
    // The pool is fine afterwards.
    expect((await loadCustomerPage(h.database.db, [site.websiteId], 0, 10)).length).toBeGreaterThan(0);
  });
});
