/**
 * POST /rest/V1/service/customer/authenticate over HTTP against a real database: results, the
 * lockout (per customer and client address; customer.lockout.test.ts has more), and the
 * transparent re-hash of old hash formats.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "../customers/authenticate.ts";
import { hashMagentoPassword, verifyMagentoPassword } from "../customers/magento-password.ts";
import { addWebsite, setConfig, snapshot, startHarness, type Harness } from "../test-support/harness.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
const UPDATE = "/rest/V1/service/customer/update";
let h: Harness;
let annId: number;

/** From fixtures/sodium-vectors.py: argon2id(sha256(salt . "Legacy!pw1")), i.e. an upgraded 1:3 hash. */
const UPGRADED = "0fd36105588f5ac43993fbb16613fde782df638470696c461c6c6465650d51b1:Xy7kQ2mN9pL4rT8vW1zB5cD3fG6hJ0aS:1:3_32_2_67108864";

beforeAll(async () => {
  h = await startHarness("webshop_auth");
  const res = await h.call("POST", UPDATE, { user_info: { username: "ann@example.com", password: "Right-pass1" }, create_if_not_exists: true });
  annId = res.body.id;
});
afterAll(async () => {
  await h?.close();
});

const customerRow = async (id: number) => (await h.rows("customer_entity", `entity_id = ${id}`))[0];
const createCustomer = async (email: string, passwordHash: string | null) => {
  const res = await h.call("POST", UPDATE, { user_info: { username: email }, create_if_not_exists: true });
  await h.exec("UPDATE customer_entity SET password_hash = ? WHERE entity_id = ?", [passwordHash, res.body.id]);
  return res.body.id as number;
};
/**
 * Takes away a website addWebsite added, with its store views, group, chain and customers: a test
 * that adds another chain leaves the shop with one, as the calls without service_chain_id need it.
 */
const removeWebsite = async (websiteId: number) => {
  for (const table of ["service_chain_website", "customer_entity", "store", "store_group", "store_website"]) {
    await h.exec(`DELETE FROM ${table} WHERE website_id = ?`, [websiteId]);
  }
};

describe("authenticate", () => {
  it("authenticates with the right password and names website and store", async () => {
    const res = await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1" });
    expect(res).toEqual({ status: 200, body: { authenticated: true, customer_id: annId, message: null, website_code: "base", store_code: "default" } });
  });

  it("fails with Magento's message for a wrong password or an unknown email, counting failures per customer and address", async () => {
    const wrong = await h.call("POST", AUTH, { email: "ann@example.com", password: "wrong", service_chain_id: 1 });
    expect(wrong).toEqual({ status: 200, body: { authenticated: false, customer_id: null, message: AUTH_MESSAGES.invalid, website_code: null, store_code: null } });
    expect(await h.rows("service_authenticate_lockout", `customer_id = ${annId}`)).toMatchObject([{ failures: 1, locked_until: null }]);
    // Magento's own per-account columns are the shop's: a relayed failure does not write them
    expect(await customerRow(annId)).toMatchObject({ failures_num: 0, first_failure: null, lock_expires: null });
    const unknown = await h.call("POST", AUTH, { email: "nobody@example.com", password: "x" });
    expect(unknown.body).toEqual(wrong.body);
    // success resets the counter
    expect((await h.call("POST", AUTH, { email: "ANN@example.com", password: "Right-pass1" })).body.authenticated).toBe(true);
    expect((await h.rows("service_authenticate_lockout", `customer_id = ${annId}`)).filter((r) => r.failures !== 0 || r.locked_until !== null)).toEqual([]); // reset, or pruned
  });

  it("locks the customer from this address after lockout_failures failures, even for the right password, for lockout_threshold minutes", async () => {
    await setConfig(h, "customer/password/lockout_failures", "3");
    await setConfig(h, "customer/password/lockout_threshold", "5");
    for (let i = 1; i <= 3; i++) {
      expect((await h.call("POST", AUTH, { email: "ann@example.com", password: `bad-${i}` })).body.message).toBe(AUTH_MESSAGES.invalid);
      if (i < 3) h.advance(1000);
    }
    const [locked] = await h.rows("service_authenticate_lockout", `customer_id = ${annId}`);
    expect(locked.failures).toBe(3);
    expect(locked.locked_until.getTime()).toBe(h.now().getTime() + 5 * 60_000);

    const right = await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1" });
    expect(right.body).toMatchObject({ authenticated: false, message: AUTH_MESSAGES.invalid });
    expect((await h.rows("service_authenticate_lockout", `customer_id = ${annId}`))[0].failures).toBe(3); // a locked attempt is not counted

    h.advance(5 * 60_000 + 1000);
    const after = await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1" });
    expect(after.body.authenticated).toBe(true);
    expect((await h.rows("service_authenticate_lockout", `customer_id = ${annId}`)).filter((r) => r.failures !== 0 || r.locked_until !== null)).toEqual([]); // reset, or pruned
  });

  it("re-hashes an upgraded 1:3 hash to the current format after a successful login", async () => {
    const id = await createCustomer("legacy@example.com", UPGRADED);
    const res = await h.call("POST", AUTH, { email: "legacy@example.com", password: "Legacy!pw1" });
    expect(res.body).toMatchObject({ authenticated: true, customer_id: id });
    const row = await customerRow(id);
    expect(row.password_hash).toMatch(/^[0-9a-f]{64}:[A-Za-z0-9]{32}:3_32_2_67108864$/);
    expect(await verifyMagentoPassword("Legacy!pw1", row.password_hash)).toBe(true);
    // a current hash is left alone
    await h.call("POST", AUTH, { email: "legacy@example.com", password: "Legacy!pw1" });
    expect((await customerRow(id)).password_hash).toBe(row.password_hash);
  });

  it("accepts md5 / sha256 hashes and rewrites them; a wrong password leaves them alone", async () => {
    const sha = createHash("sha256").update("s4ltOld-sha").digest("hex");
    const id = await createCustomer("sha@example.com", `${sha}:s4lt:1`);
    expect((await h.call("POST", AUTH, { email: "sha@example.com", password: "wrong" })).body.authenticated).toBe(false);
    expect((await customerRow(id)).password_hash).toBe(`${sha}:s4lt:1`);
    expect((await h.call("POST", AUTH, { email: "sha@example.com", password: "Old-sha" })).body.authenticated).toBe(true);
    expect((await customerRow(id)).password_hash).toMatch(/:3_32_2_67108864$/);

    const md5 = createHash("md5").update("abOld-md5").digest("hex");
    const id2 = await createCustomer("md5@example.com", `${md5}:ab`);
    expect((await h.call("POST", AUTH, { email: "md5@example.com", password: "Old-md5" })).body.authenticated).toBe(true);
    expect((await customerRow(id2)).password_hash).toMatch(/:3_32_2_67108864$/);
  });

  it("fails for a customer without a password or an inactive one", async () => {
    await createCustomer("nopass@example.com", null);
    expect((await h.call("POST", AUTH, { email: "nopass@example.com", password: "anything" })).body.message).toBe(AUTH_MESSAGES.invalid);
    await h.exec("UPDATE customer_entity SET is_active = 0 WHERE entity_id = ?", [annId]);
    try {
      expect((await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1" })).body)
        .toMatchObject({ authenticated: false, message: AUTH_MESSAGES.inactive });
    } finally {
      await h.exec("UPDATE customer_entity SET is_active = 1 WHERE entity_id = ?", [annId]);
    }
  });

  it("400 for invalid bodies and chain errors, writing nothing", async () => {
    const before = await snapshot(h);
    const missing = await h.call("POST", AUTH, { email: "ann@example.com" });
    expect(missing).toEqual({ status: 400, body: { message: '"%fieldName" is required. Enter and try again.', parameters: { fieldName: "password" } } });
    expect((await h.call("POST", AUTH, { email: "ann@example.com", password: 5 })).status).toBe(400);
    expect((await h.call("POST", AUTH, { email: "ann@example.com", password: "x", service_chain_id: "abc" })).status).toBe(400);
    expect((await h.call("POST", AUTH, { email: "ann@example.com", password: "x", service_chain_id: 7 })).body)
      .toEqual({ message: "Service chain %chainId is not configured in this shop.", parameters: { chainId: 7 } });
    const chain2 = await addWebsite(h, "chain2", 2);
    try {
      expect((await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1" })).body.parameters)
        .toEqual({ fieldName: "service_chain_id" });
      const { store_website: _w, store: _s, service_chain_website: _m, ...rest } = before;
      const { store_website: _w2, store: _s2, service_chain_website: _m2, ...restAfter } = await snapshot(h);
      expect(restAfter).toEqual(rest);
      // with the chain id it works again; customers of chain 1 are not found through chain 2
      expect((await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1", service_chain_id: 1 })).body.authenticated).toBe(true);
      expect((await h.call("POST", AUTH, { email: "ann@example.com", password: "Right-pass1", service_chain_id: 2 })).body.authenticated).toBe(false);
    } finally {
      await removeWebsite(chain2.websiteId);
    }
  });

  it("names the customer's own store view, else its website's default store view", async () => {
    const { websiteId } = await addWebsite(h, "views", 3);
    try {
      await h.exec("INSERT INTO store (code, website_id, group_id, name, is_active) VALUES ('views_second', ?, 0, 'second view', 1)", [websiteId]);
      const [second] = await h.rows("store", "code = 'views_second'");
      await h.exec("INSERT INTO customer_entity (website_id, email, store_id, firstname, lastname, password_hash) VALUES (?, 'viewer@example.com', ?, 'V', 'W', ?)",
        [websiteId, second.store_id, await hashMagentoPassword("View-pass1")]);
      const login = async () => (await h.call("POST", AUTH, { email: "viewer@example.com", password: "View-pass1", service_chain_id: 3 })).body;
      expect(await login()).toMatchObject({ authenticated: true, website_code: "views", store_code: "views_second" });
      for (const storeId of [9999, 0, null]) {
        // a store view that is gone, or none: the website's default one
        await h.exec("UPDATE customer_entity SET store_id = ? WHERE email = 'viewer@example.com'", [storeId]);
        expect(await login()).toMatchObject({ authenticated: true, website_code: "views", store_code: "views_store" });
      }
    } finally {
      await removeWebsite(websiteId);
    }
  });
});
