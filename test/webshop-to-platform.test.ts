/**
 * Webshop -> platform with both services for real: the core API over HTTP on its own database, the
 * connector's store linked to it. Customers are written into the Magento tables with SQL, as
 * Magento does on registration and account edit (not through the connector's `update`), and the
 * reconcile finds them by their user info hash.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { updateCustomerRequestSchema } from "@service/shared/connector";
import { updateCustomerFromUserInfo } from "../connector/src/customers/update-customer.ts";
import { FIRST_MEMBER_NUMBER, startSyncWorld, type SyncWorld } from "./helpers/sync-world.ts";

let w: SyncWorld;

beforeAll(async () => {
  w = await startSyncWorld("websync");
}, 60_000);

afterAll(() => w?.close());

// Every test starts from an empty shop and a chain without members: none counts on another's customers.
beforeEach(() => w.resetCustomers());

const ann = {
  email: "ann.sync@example.com", firstname: "Ann", lastname: "de Vries", dob: "1990-04-27", gender: 2,
  address: { street: "Stationsplein\n1\nA", city: "Amsterdam", postcode: "1012 AB", countryId: "NL", telephone: "020 123 4567" },
};

describe("a shop registration becomes a member", () => {
  /** Ann registered and sent by a pass; her entity_id. */
  async function syncedAnn(): Promise<number> {
    const annId = await w.register(ann);
    expect((await w.reconcile()).chains[0]).toMatchObject({ due: 1, sent: 1, failed: 0 });
    return annId;
  }

  it("is sent to add-user once, and the member's user_id and member_number come back", async () => {
    const annId = await w.register(ann);
    const report = await w.reconcile();
    expect(report.status).toBe("done");
    expect(report.chains).toEqual([{ chainId: w.chainId, scanned: 1, due: 1, sent: 1, pulled: 0, failed: 0, stopped: null }]);

    const member = await w.member(`authentication_point_identifier=${annId}&chain_id=${w.chainId}`);
    expect(member).toMatchObject({
      username: ann.email, first_name: "Ann", last_name: "de Vries", birthday: "1990-04-27", gender: "female",
      address_streetname: "Stationsplein", address_housenumber: "1", address_housenumber_extension: "A",
      address_postalcode: "1012 AB", address_towncity: "Amsterdam", country_code: "NL", phone_number: "+31201234567",
      authentication_point_identifier: String(annId), member_number: String(FIRST_MEMBER_NUMBER),
      // the chain's identity-source client adds it: the account comes from the e-commerce platform
      signup_channel: "platform",
    });
    const stored = await w.serviceData(annId);
    expect(stored).toMatchObject({ user_id: member!.id, member_number: String(FIRST_MEMBER_NUMBER), service_chain_id: w.chainId });
    expect(stored.last_hash).toBe(await w.currentHash(annId));
    expect(stored.platform_modified_at).toEqual(new Date(member!.last_modified_date.replace(" ", "T").replace(/Z?$/, "Z")));
  });

  it("a second pass sends nothing: equal hashes", async () => {
    const annId = await syncedAnn();
    const before = await w.member(`authentication_point_identifier=${annId}&chain_id=${w.chainId}`);
    const calls: string[] = [];
    const report = await w.reconcile({}, (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    });
    expect(report.chains[0]).toMatchObject({ scanned: 1, due: 0, sent: 0 });
    expect(calls).toEqual([]);
    expect(await w.member(`user_id=${before!.id}`)).toEqual(before);
  });

  it("an account edit in the Magento tables reaches the same member; nothing else is created", async () => {
    const annId = await syncedAnn();
    await w.shopSql("UPDATE customer_entity SET firstname = 'Anna', email = 'anna.new@example.com' WHERE entity_id = ?", [annId]);
    await w.shopSql("UPDATE customer_address_entity SET telephone = '+31 6 12345678', city = 'Utrecht' WHERE parent_id = ?", [annId]);
    const { user_id: userId } = await w.serviceData(annId);
    const calls: Array<{ call: string; body: any }> = [];
    const report = await w.reconcile({}, recording(calls));
    expect(report.chains[0]).toMatchObject({ due: 1, sent: 1, failed: 0 });
    // One call: add-user, conditional on the member's version the registration recorded.
    expect(calls.map((c) => c.call)).toEqual(["POST /internal/add-user"]);
    expect(await w.member(`user_id=${userId}`)).toMatchObject({
      username: "anna.new@example.com", first_name: "Anna", address_towncity: "Utrecht", phone_number: "+31612345678",
      member_number: String(FIRST_MEMBER_NUMBER),
    });
    expect(await w.memberCount()).toBe(1);
    expect((await w.serviceData(annId)).last_hash).toBe(await w.currentHash(annId));
  });

  it("a change the platform made through update does not echo back", async () => {
    const annId = await syncedAnn();
    const { user_id: userId } = await w.serviceData(annId);
    const member = (await w.member(`user_id=${userId}`))!;
    const changed = await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, last_name: "Jansen" });
    expect(changed.status).toBe(200);
    // What the outbox delivers: the member as the platform now holds it, to the connector's update.
    await updateCustomerFromUserInfo({ db: w.shop.db, clock: () => new Date() }, updateCustomerRequestSchema.parse({
      user_info: changed.body.results.user, service_chain_id: w.chainId,
    }));
    expect((await w.shopSql("SELECT lastname FROM customer_entity WHERE entity_id = ?", [annId]))[0].lastname).toBe("Jansen");
    const report = await w.reconcile();
    expect(report.chains[0]).toMatchObject({ due: 0, sent: 0 });
    expect((await w.member(`user_id=${userId}`))!.last_modified_date >= member.last_modified_date).toBe(true);
  });
});

/** A customer with a valid Dutch address, `n` making it unique. */
const customer = (n: string, extra: Partial<Parameters<SyncWorld["register"]>[0]> = {}) => ({
  email: `c${n}@example.com`, firstname: `First${n}`, lastname: `Last${n}`,
  address: { street: `Street ${n}\n${n.length}`, city: "Utrecht", postcode: "3511 AB", countryId: "NL", telephone: "+31612345678" },
  ...extra,
});

describe("customers never synced", () => {
  it("from before the chain was linked go out with --full only; --dry-run lists them and sends nothing", async () => {
    const old = await w.register(customer("legacy1", { createdAt: new Date("2020-01-02T03:04:05Z") }));
    const regular = await w.reconcile();
    expect(regular.chains[0]).toMatchObject({ due: 0, sent: 0 });

    const countBefore = await w.memberCount();
    const dry = await w.reconcile({ full: true, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.wouldSend).toEqual([{ chainId: w.chainId, customerId: old, email: "clegacy1@example.com", reason: "never_synced" }]);
    expect(dry.chains[0]).toMatchObject({ due: 1, sent: 0 });
    expect(await w.memberCount()).toBe(countBefore);
    expect(await w.serviceData(old)).toBeNull();

    const full = await w.reconcile({ full: true });
    expect(full.chains[0]).toMatchObject({ due: 1, sent: 1 });
    expect(await w.member(`authentication_point_identifier=${old}&chain_id=${w.chainId}`)).toMatchObject({ username: "clegacy1@example.com" });
    expect(await w.memberCount()).toBe(countBefore + 1);
  });
});

describe("conflicts: the newer change wins", () => {
  /** A synced customer whose last sync is put two hours back (the platform's and the shop's changes come after it). */
  async function syncedCustomer(n: string): Promise<{ id: number; userId: number }> {
    const id = await w.register(customer(n));
    expect((await w.reconcile()).chains[0]!.sent).toBe(1);
    await w.shopSql("UPDATE service_customer_data SET platform_modified_at = UTC_TIMESTAMP() - INTERVAL 2 HOUR WHERE customer_id = ?", [id]);
    await w.shopSql("UPDATE customer_address_entity SET updated_at = UTC_TIMESTAMP() - INTERVAL 2 HOUR WHERE parent_id = ?", [id]);
    return { id, userId: (await w.serviceData(id)).user_id };
  }

  it("a platform change newer than the shop's comes into the shop, and the shop's older one is not sent", async () => {
    const { id, userId } = await syncedCustomer("conflict1");
    await w.shopSql("UPDATE customer_entity SET firstname = 'ShopOlder', updated_at = UTC_TIMESTAMP() - INTERVAL 1 HOUR WHERE entity_id = ?", [id]);
    expect((await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, first_name: "PlatformNewer" })).status).toBe(200);

    const report = await w.reconcile();
    expect(report.chains[0]).toMatchObject({ due: 1, sent: 0, pulled: 1, failed: 0 });
    expect((await w.member(`user_id=${userId}`))!.first_name).toBe("PlatformNewer");
    expect((await w.shopSql("SELECT firstname FROM customer_entity WHERE entity_id = ?", [id]))[0].firstname).toBe("PlatformNewer");
    expect((await w.serviceData(id)).last_hash).toBe(await w.currentHash(id));
    expect((await w.reconcile()).chains[0]).toMatchObject({ due: 0 });
  });

  it("a shop change newer than the platform's is sent and overrides it", async () => {
    const { id, userId } = await syncedCustomer("conflict2");
    expect((await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, first_name: "PlatformOlder" })).status).toBe(200);
    await w.shopSql("UPDATE customer_entity SET firstname = 'ShopNewer', updated_at = UTC_TIMESTAMP() + INTERVAL 1 HOUR WHERE entity_id = ?", [id]);

    const calls: Array<{ call: string; body: any }> = [];
    const report = await w.reconcile({}, recording(calls));
    expect(report.chains[0]).toMatchObject({ due: 1, sent: 1, pulled: 0 });
    expect((await w.member(`user_id=${userId}`))!.first_name).toBe("ShopNewer");
    // The first, conditional on the version of the last sync, finds the platform's change; the
    // second is conditional on that change.
    const member = (await w.member(`user_id=${userId}`))!;
    expect(calls.map((c) => c.call)).toEqual(["POST /internal/add-user", "POST /internal/add-user"]);
    expect(calls[1]!.body.if_unmodified_since > calls[0]!.body.if_unmodified_since).toBe(true);
    expect(new Date(calls[1]!.body.if_unmodified_since).getTime()).toBeLessThanOrEqual(platformTime(member.last_modified_date));
  });
});

/** A fetch that records each call (`METHOD /path`, its JSON body) and forwards it; `before` runs first. */
function recording(calls: Array<{ call: string; body: any }>, before?: (call: string) => Promise<void>): typeof fetch {
  return async (input, init) => {
    const call = `${init?.method ?? "GET"} ${new URL(String(input)).pathname}`;
    calls.push({ call, body: typeof init?.body === "string" ? JSON.parse(init.body) : null });
    await before?.(call);
    return fetch(input, init);
  };
}

/** A platform datetime (`YYYY-MM-DD HH:MM:SS` or RFC 3339, UTC) in ms. */
const platformTime = (text: string) => new Date(text.replace(" ", "T").replace(/Z?$/, "Z")).getTime();

describe("conflicts in one call: add-user's if_unmodified_since", () => {
  /**
   * A synced customer whose member, its recorded version and its shop rows were all last changed
   * two hours ago (whole seconds), so a change made now on either side is later than each.
   */
  async function settledCustomer(n: string): Promise<{ id: number; userId: number; at: Date }> {
    const id = await w.register(customer(n));
    expect((await w.reconcile()).chains[0]!.sent).toBe(1);
    const { user_id: userId } = await w.serviceData(id);
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 2 * 3_600_000);
    await w.coreDb.pool.query("UPDATE users SET last_modified_date = ? WHERE id = ?", [at, userId]);
    await w.shopSql("UPDATE service_customer_data SET platform_modified_at = ? WHERE customer_id = ?", [at, id]);
    await w.shopSql("UPDATE customer_entity SET updated_at = ? WHERE entity_id = ?", [at, id]);
    await w.shopSql("UPDATE customer_address_entity SET updated_at = ? WHERE parent_id = ?", [at, id]);
    return { id, userId, at };
  }

  it("an account edit with no platform change since the last sync is one add-user call, no get-user", async () => {
    const { id, userId, at } = await settledCustomer("onecall1");
    await w.shopSql("UPDATE customer_entity SET firstname = 'OneCall' WHERE entity_id = ?", [id]);
    const calls: Array<{ call: string; body: any }> = [];
    const report = await w.reconcile({}, recording(calls));
    expect(report.chains[0]).toMatchObject({ due: 1, sent: 1, pulled: 0, failed: 0 });
    expect(calls.map((c) => c.call)).toEqual(["POST /internal/add-user"]);
    expect(new Date(calls[0]!.body.if_unmodified_since)).toEqual(at);
    const member = (await w.member(`user_id=${userId}`))!;
    expect(member.first_name).toBe("OneCall");
    expect((await w.serviceData(id)).platform_modified_at).toEqual(new Date(platformTime(member.last_modified_date)));
  });

  it("a platform change landing between the pass's read and its add-user is not overwritten: the shop takes it", async () => {
    const { id, userId } = await settledCustomer("race1");
    await w.shopSql("UPDATE customer_entity SET firstname = 'ShopEarlier', updated_at = UTC_TIMESTAMP() - INTERVAL 1 HOUR WHERE entity_id = ?", [id]);
    const calls: Array<{ call: string; body: any }> = [];
    let raced = false;
    const report = await w.reconcile({}, recording(calls, async (call) => {
      if (call !== "POST /internal/add-user" || raced) return;
      raced = true;
      expect((await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, first_name: "PlatformRacing" })).status).toBe(200);
    }));
    expect(report.chains[0]).toMatchObject({ due: 1, sent: 0, pulled: 1, failed: 0 });
    expect(calls.map((c) => c.call)).toEqual(["POST /internal/add-user"]);
    expect((await w.member(`user_id=${userId}`))!.first_name).toBe("PlatformRacing");
    expect((await w.shopSql("SELECT firstname FROM customer_entity WHERE entity_id = ?", [id]))[0].firstname).toBe("PlatformRacing");
    expect((await w.serviceData(id)).last_hash).toBe(await w.currentHash(id));
  });

  it("the shop's newer change is sent with the member number the platform gave since, not the one recorded before", async () => {
    const { id, userId } = await settledCustomer("number1");
    const recorded = (await w.serviceData(id)).member_number as string;
    const given = String(FIRST_MEMBER_NUMBER + 999_000n);
    // The platform's change (a new member number) has not been delivered to the shop yet.
    expect((await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, member_number: given })).status).toBe(200);
    await w.shopSql("UPDATE customer_entity SET firstname = 'ShopNewest', updated_at = UTC_TIMESTAMP() + INTERVAL 1 HOUR WHERE entity_id = ?", [id]);
    const calls: Array<{ call: string; body: any }> = [];
    const report = await w.reconcile({}, recording(calls));
    expect(report.chains[0]).toMatchObject({ due: 1, sent: 1, pulled: 0, failed: 0 });
    expect(calls.map((c) => c.body.member_number)).toEqual([recorded, given]);
    expect(await w.member(`user_id=${userId}`)).toMatchObject({ first_name: "ShopNewest", member_number: given });
    expect((await w.serviceData(id)).member_number).toBe(given);
  });
});

describe("conflicts on the platform's side: update", () => {
  it("a delivery older than the shop's unsynced change leaves the shop's, which the next pass sends", async () => {
    const id = await w.register(customer("late1"));
    expect((await w.reconcile()).chains[0]!.sent).toBe(1);
    const { user_id: userId } = await w.serviceData(id);
    const altered = await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, first_name: "PlatformEarlier" });
    expect(altered.status).toBe(200);
    // The shop changes the customer after the platform did, before the platform's delivery arrives.
    await w.shopSql("UPDATE customer_entity SET firstname = 'ShopLater', updated_at = UTC_TIMESTAMP() + INTERVAL 1 HOUR WHERE entity_id = ?", [id]);
    const delivered = await updateCustomerFromUserInfo({ db: w.shop.db, clock: () => new Date() }, updateCustomerRequestSchema.parse({
      user_info: altered.body.results.user, service_chain_id: w.chainId,
    }));
    expect(delivered.firstname).toBe("ShopLater");
    expect((await w.shopSql("SELECT firstname FROM customer_entity WHERE entity_id = ?", [id]))[0].firstname).toBe("ShopLater");
    expect((await w.reconcile()).chains[0]).toMatchObject({ due: 1, sent: 1, pulled: 0 });
    expect((await w.member(`user_id=${userId}`))!.first_name).toBe("ShopLater");
  });

  it("a delivery newer than the shop's change overwrites it, and nothing is sent back", async () => {
    const id = await w.register(customer("late2"));
    expect((await w.reconcile()).chains[0]!.sent).toBe(1);
    const { user_id: userId } = await w.serviceData(id);
    await w.shopSql("UPDATE customer_entity SET firstname = 'ShopEarlier', updated_at = UTC_TIMESTAMP() - INTERVAL 1 HOUR WHERE entity_id = ?", [id]);
    await w.shopSql("UPDATE customer_address_entity SET updated_at = UTC_TIMESTAMP() - INTERVAL 1 HOUR WHERE parent_id = ?", [id]);
    const altered = await w.coreCall("PUT", "/internal/alter-user", { user_id: userId, first_name: "PlatformLater" });
    await updateCustomerFromUserInfo({ db: w.shop.db, clock: () => new Date() }, updateCustomerRequestSchema.parse({
      user_info: altered.body.results.user, service_chain_id: w.chainId,
    }));
    expect((await w.shopSql("SELECT firstname FROM customer_entity WHERE entity_id = ?", [id]))[0].firstname).toBe("PlatformLater");
    expect((await w.reconcile()).chains[0]).toMatchObject({ due: 0, sent: 0 });
  });
});

describe("failures", () => {
  it("a customer the platform refuses is reported and tried again on the next pass; the others go through", async () => {
    const bad = await w.register(customer("badphone", { address: { street: "Kerkstraat\n1", city: "Utrecht", postcode: "3511 AB", countryId: "NL", telephone: "12" } }));
    const good = await w.register(customer("goodphone"));
    const report = await w.reconcile();
    expect(report.chains[0]).toMatchObject({ due: 2, sent: 1, failed: 1, stopped: null });
    expect(report.failures).toEqual([expect.objectContaining({ customerId: bad, reason: "new", message: expect.stringContaining("invalid_phone_number") })]);
    expect(await w.serviceData(bad)).toBeNull();
    expect(await w.serviceData(good)).toMatchObject({ last_hash: await w.currentHash(good) });

    await w.shopSql("UPDATE customer_address_entity SET telephone = '+31 30 123 4567' WHERE parent_id = ?", [bad]);
    const again = await w.reconcile();
    expect(again.chains[0]).toMatchObject({ due: 1, sent: 1, failed: 0 });
    expect(await w.member(`authentication_point_identifier=${bad}&chain_id=${w.chainId}`)).toMatchObject({ phone_number: "+31301234567" });
  });

  it("with the platform down the chain stops, stores nothing, and the next pass sends", async () => {
    await w.stopCore();
    const id = await w.register(customer("down1"));
    try {
      const report = await w.reconcile();
      expect(report.status).toBe("done");
      expect(report.chains[0]).toMatchObject({ due: 1, sent: 0, failed: 1, stopped: expect.stringContaining("unavailable") });
      expect(await w.serviceData(id)).toBeNull();
    } finally {
      await w.startCore();
    }
    expect((await w.reconcile()).chains[0]).toMatchObject({ due: 1, sent: 1, stopped: null });
  });

  it("a token the platform refuses stops the chain with a message saying to link it again", async () => {
    const { linkPlatform } = await import("../connector/src/sync/platform-link.ts");
    const wrong = `${crypto.randomUUID()}:${"f".repeat(64)}`;
    await linkPlatform(w.shop.db, w.box, { chainId: w.chainId, coreApiUrl: w.coreUrl, accessToken: wrong, appHostname: "shop.sync.example.test" });
    const id = await w.register(customer("token1"));
    try {
      const report = await w.reconcile();
      expect(report.chains[0]).toMatchObject({ sent: 0, failed: 1, stopped: expect.stringContaining("link the chain again") });
      expect(await w.serviceData(id)).toBeNull();
    } finally {
      await linkPlatform(w.shop.db, w.box, { chainId: w.chainId, coreApiUrl: w.coreUrl, accessToken: w.accessToken, appHostname: "shop.sync.example.test" });
    }
    expect((await w.reconcile()).chains[0]).toMatchObject({ sent: 1 });
  });
});

describe("paging and concurrency", () => {
  it("reads keyset pages and keeps at most `concurrency` calls in flight", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) ids.push(await w.register(customer(`bulk${i}`)));
    const total = (await w.shopSql("SELECT COUNT(*) AS n FROM customer_entity"))[0].n;
    let inFlight = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      most = Math.max(most, ++inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const sent: number[] = [];
    const report = await w.reconcile({ batchSize: 7, concurrency: 4, onSent: (s) => sent.push(s.customerId) }, counting);
    expect(report.chains[0]).toMatchObject({ scanned: Number(total), due: 30, sent: 30, failed: 0 });
    expect(sent.sort((a, b) => a - b)).toEqual(ids);
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThan(1);
  });
});
