import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestAdmin } from "../../../test/helpers/core.ts";
import { createAppHostname } from "../db/seed.ts";
import { allowedIpRanges, chains, currencies } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
/** read, write, delete and assign on the chain, but not super user */
let nonSuper: TestAdmin;
let reader: TestAdmin;
/** a second chain the super user of the first may also administer */
let sibling: number;
let appId: number;
let eur: { id: number; code: string; name: string };
/** the chain as beforeAll leaves it: every test starts from this row */
let seeded: typeof chains.$inferSelect;

beforeAll(async () => {
  w = await startResourcesWorld();
  w.setNow("2026-01-01T02:00:00Z");
  nonSuper = await w.core.admin({ read: true, write: true, delete: true, assign: true });
  reader = await w.core.admin({ read: true });
  sibling = await w.core.createChain("Sibling");
  appId = await createAppHostname(w.core.db, w.core.chainId, "shop.test");
  await createAppHostname(w.core.db, w.core.chainId, "second-shop.test");
  eur = (await w.core.db.select().from(currencies).where(eq(currencies.code, "EUR")))[0]!;
  // Admins log in before the chain has ranges; the super user stays exempt from them afterwards.
  await w.core.db
    .update(chains)
    .set({ ipWhitelistSuperUserExemption: true, createdDate: new Date("2025-12-01T00:00:00Z"), lastModifiedDate: new Date("2025-12-01T00:00:00Z") })
    .where(eq(chains.id, w.core.chainId));
  seeded = await chainRow();
});
afterAll(() => w.core.close());

// Each test starts from the seeded chain, without IP ranges, at the seeded time: one test's writes
// (a rename, a live range that would bind the non-exempt reader) do not reach the next.
beforeEach(async () => {
  w.setNow("2026-01-01T02:00:00Z");
  const { id: _id, ...values } = seeded;
  await w.core.db.update(chains).set(values).where(eq(chains.id, w.core.chainId));
  await w.core.db.delete(allowedIpRanges);
});

const chainRow = async () => (await w.core.db.select().from(chains).where(eq(chains.id, w.core.chainId)))[0]!;
const path = () => `/resources/chain/${w.core.chainId}`;
const level = (n: number) => ({ "X-Service-Response-Recursion-Level": String(n) });

describe("GET /resources/chain", () => {
  it("gets the header chain at the default level 2", async () => {
    const { status, body } = await w.call("GET", "/resources/chain");
    expect(status).toBe(200);
    expect(body.results).toEqual({
      app: { id: appId },
      authentication_point: null,
      created_date: "2025-12-01T00:00:00Z",
      currency: null,
      deleted: false,
      dummy_email_domain: null,
      email_address: null,
      id: w.core.chainId,
      image_url: null,
      language: null,
      last_modified_date: "2025-12-01T00:00:00Z",
      last_updated_by: null,
      name: "Test Chain",
      phone_number: null,
      receipt_logo_url: null,
    });
  });

  it("lets an admin with read access read it (before the chain has IP ranges, which bind a non-exempt admin)", async () => {
    const res = await w.call("GET", "/resources/chain", undefined, reader.headers);
    expect(res.status).toBe(200);
    expect(res.body.results.id).toBe(w.core.chainId);
  });

  it("gets the same chain by /{id} and ?id=", async () => {
    const plain = (await w.call("GET", "/resources/chain")).body.results;
    expect((await w.call("GET", path())).body.results).toEqual(plain);
    expect((await w.call("GET", `/resources/chain?id=${w.core.chainId}`)).body.results).toEqual(plain);
  });

  it("renders levels 0, 1 and 3 (every property, with the live allowed IP ranges)", async () => {
    expect((await w.call("GET", "/resources/chain", undefined, level(0))).body.results).toEqual({ id: w.core.chainId });
    expect((await w.call("GET", "/resources/chain", undefined, level(1))).body.results).toEqual({
      app: { id: appId },
      deleted: false,
      id: w.core.chainId,
      name: "Test Chain",
    });
    const now = new Date("2026-01-01T02:00:00Z");
    const [live] = await w.core.db.insert(allowedIpRanges).values({ chainId: w.core.chainId, cidr: "192.0.2.0/24", notes: "office", createdDate: now, lastModifiedDate: now });
    await w.core.db.insert(allowedIpRanges).values({ chainId: w.core.chainId, cidr: "198.51.100.0/24", deleted: true });
    await w.core.db.insert(allowedIpRanges).values({ chainId: sibling, cidr: "203.0.113.0/24" });
    const l3 = (await w.call("GET", "/resources/chain", undefined, level(3))).body.results;
    expect(Object.keys(l3)).toHaveLength(53); // the spec's 51 and the referral code submission window (quantity, unit)
    expect(l3).toMatchObject({
      allowed_business_formats: null,
      allows_double_discounting: false,
      competition_win_rate_multiplier: 1,
      ip_whitelist_super_user_exemption: true,
      non_payment_state: false,
      jwt_jwks_url: null,
      wallet_issuer_id: null,
    });
    expect(l3.allowed_ip_ranges).toEqual([
      {
        // each range is rendered at level 2, its chain at level 1 (the one rule, all the way down)
        chain: { id: w.core.chainId, name: l3.name, deleted: false, app: l3.app },
        cidr: "192.0.2.0/24",
        created_date: "2026-01-01T02:00:00Z",
        deleted: false,
        id: Number(live.insertId),
        last_modified_date: "2026-01-01T02:00:00Z",
        last_updated_by: null,
        notes: "office",
      },
    ]);
  });

  it("formats datetimes per X-Service-API-version", async () => {
    const old = await w.call("GET", "/resources/chain", undefined, { "X-Service-API-version": "1.5.8" });
    expect(old.body.results.created_date).toBe("2025-12-01 00:00:00");
  });

  it("answers 544 for another chain's id, even one the admin may administer, and for a bad id", async () => {
    await w.core.db.insert(allowedIpRanges).values({ chainId: sibling, cidr: "10.0.0.0/8", deleted: true });
    for (const p of [`/resources/chain/${sibling}`, `/resources/chain?id=${sibling}`, "/resources/chain/999999", "/resources/chain/abc"]) {
      expect({ p, ...errorOf(await w.call("GET", p)) }).toEqual({ p, status: 404, code: 544, name: "resource_not_found" });
    }
    expect(errorOf(await w.call("GET", "/resources/chain?name=Test%20Chain")).code).toBe(419);
  });

});

describe("PUT and PATCH /resources/chain/{id}", () => {
  it("PATCH writes W properties, currency by {id}, formats as JSON, and records who and when", async () => {
    w.setNow("2026-01-01T03:00:00Z");
    const res = await w.call(
      "PATCH",
      path(),
      {
        name: "Renamed Chain",
        currency: { id: eur.id, code: "ignored" },
        allowed_business_formats: ["supermarket", "express"],
        allows_double_discounting: true,
        competition_win_rate_multiplier: 1.5,
        email_address: "info@chain.example",
        dummy_email_domain: "members.chain.example",
        image_url: "https://cdn.example/logo.png",
        jwt_jwks_url: "https://id.example/.well-known/jwks.json",
        jwt_issuer: "https://id.example",
        language: "nl-NL",
        wallet_issuer_id: "issuer-1",
        verify_phone_numbers: true,
      },
      level(3),
    );
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({
      name: "Renamed Chain",
      currency: { id: eur.id, code: "EUR", name: eur.name },
      allowed_business_formats: ["supermarket", "express"],
      allows_double_discounting: true,
      competition_win_rate_multiplier: 1.5,
      verify_phone_numbers: true,
      last_updated_by: { id: w.admin.id },
      last_modified_date: "2026-01-01T03:00:00Z",
      created_date: "2025-12-01T00:00:00Z",
    });
    expect(await chainRow()).toMatchObject({
      name: "Renamed Chain",
      currencyId: eur.id,
      allowedBusinessFormats: '["supermarket","express"]',
      allowsDoubleDiscounting: true,
      competitionWinRateMultiplier: 1.5,
      emailAddress: "info@chain.example",
      dummyEmailDomain: "members.chain.example",
      imageUrl: "https://cdn.example/logo.png",
      jwtJwksUrl: "https://id.example/.well-known/jwks.json",
      jwtIssuer: "https://id.example",
      language: "nl-NL",
      walletIssuerId: "issuer-1",
      verifyPhoneNumbers: true,
      lastUpdatedBy: w.admin.id,
      lastModifiedDate: new Date("2026-01-01T03:00:00Z"),
    });
  });

  it("PUT changes only the properties sent (a settings resource), also without an id in the path", async () => {
    // properties PUT does not send, set apart from their seeded values so that keeping them shows
    await w.core.db.update(chains).set({ name: "Renamed Chain", emailAddress: "info@chain.example", currencyId: eur.id }).where(eq(chains.id, w.core.chainId));
    const res = await w.call("PUT", path(), { language: "de" });
    expect(res.status).toBe(200);
    expect(await chainRow()).toMatchObject({ language: "de", name: "Renamed Chain", emailAddress: "info@chain.example", currencyId: eur.id });
    const implied = await w.call("PUT", "/resources/chain", { phone_number: "+31201234567" });
    expect(implied.body.results).toMatchObject({ id: w.core.chainId, phone_number: "+31201234567", language: "de" });
    expect((await chainRow()).phoneNumber).toBe("+31201234567");
  });

  it("sets nullable properties to null and tolerates the chain's own id in the body", async () => {
    await w.core.db
      .update(chains)
      .set({ emailAddress: "info@chain.example", allowedBusinessFormats: '["supermarket"]', jwtJwksUrl: "https://id.example/.well-known/jwks.json" })
      .where(eq(chains.id, w.core.chainId));
    const res = await w.call("PATCH", path(), { id: w.core.chainId, email_address: null, allowed_business_formats: null, jwt_jwks_url: null });
    expect(res.status).toBe(200);
    expect(await chainRow()).toMatchObject({ emailAddress: null, allowedBusinessFormats: null, jwtJwksUrl: null });
  });

  it("refuses unknown, read-only and non-W properties, wrong types, formats and lengths; nothing is written", async () => {
    const cases: Array<[unknown, number]> = [
      [{ colour: "red" }, 419],
      [{ id: sibling }, 419],
      [{ created_date: "2026-01-01T00:00:00Z" }, 419],
      [{ last_modified_date: "2026-01-01T00:00:00Z" }, 419],
      [{ deleted: true }, 419],
      [{ last_updated_by: { id: 1 } }, 419],
      [{ allowed_ip_ranges: [] }, 419],
      [{ app: { id: appId } }, 419],
      [{ authentication_point: null }, 419],
      [{ non_payment_state: true }, 419],
      [{ receipts_service_active: true }, 419],
      [{ calculate_basket_on_total_value_online: true }, 419],
      [{ basket_voucher_always_redeem_full_value_in_store: true }, 419],
      [{ expired_vouchers_regenerate_on_return: true }, 419],
      [{ return_redeem_voucher_before_cash: true }, 419],
      [{ name: 5 }, 419],
      [{ name: "" }, 419],
      [{ name: null }, 419],
      [{ allows_double_discounting: "yes" }, 419],
      [{ allows_double_discounting: null }, 419],
      [{ competition_win_rate_multiplier: "x" }, 419],
      [{ competition_win_rate_multiplier: -1 }, 419],
      [{ allowed_business_formats: "supermarket" }, 419],
      [{ allowed_business_formats: [1] }, 419],
      [{ currency: "EUR" }, 419],
      [{ currency: {} }, 419],
      [{ currency: { id: 999_999 } }, 419],
      [{ currency: null }, 419],
      [{ email_address: "not an email" }, 419],
      [{ dummy_email_domain: "not a host!" }, 419],
      [{ image_url: "javascript:alert(1)" }, 419],
      [{ jwt_jwks_url: "ftp://id.example/keys" }, 419],
      [{ password_reset_url: "reset" }, 419],
      [{ name: "n".repeat(256) }, 482],
      [{ wallet_issuer_id: "w".repeat(129) }, 482],
      [{ phone_number: "1".repeat(33) }, 482],
      [{ language: "l".repeat(33) }, 482],
      [{ jwt_audience: "a".repeat(256) }, 482],
      [{ name: "Fine", colour: "red" }, 419],
      [{ name: "Fine", currency: { id: 999_999 } }, 419],
    ];
    const before = await chainRow();
    for (const method of ["PATCH", "PUT"]) {
      for (const [body, code] of cases) {
        const res = await w.call(method, path(), body);
        expect({ method, body, code: errorOf(res).code, status: res.status }).toEqual({ method, body, code, status: 400 });
      }
    }
    expect(await chainRow()).toEqual(before);
  });

  it("refuses writes of an admin who is not a super user, and any other chain id, with 544; nothing is written", async () => {
    const before = await chainRow();
    const siblingBefore = (await w.core.db.select().from(chains).where(eq(chains.id, sibling)))[0];
    for (const method of ["PATCH", "PUT"]) {
      expect(errorOf(await w.call(method, path(), { name: "Hijacked" }, nonSuper.headers))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
      expect(errorOf(await w.call(method, `/resources/chain/${sibling}`, { name: "Hijacked" }))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await chainRow()).toEqual(before);
    expect((await w.core.db.select().from(chains).where(eq(chains.id, sibling)))[0]).toEqual(siblingBefore);
  });

  it("offers no POST, DELETE or plural (544), and writes nothing", async () => {
    const before = await w.core.db.select().from(chains);
    for (const [method, p, body] of [
      ["POST", "/resources/chain", { name: "New Chain" }],
      ["DELETE", path(), undefined],
      ["DELETE", "/resources/chain", undefined],
      ["GET", "/resources/chains", undefined],
      ["POST", "/resources/chains", { name: "New Chain" }],
    ] as const) {
      expect({ method, p, ...errorOf(await w.call(method, p, body)) }).toEqual({ method, p, status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await w.core.db.select().from(chains)).toEqual(before);
  });
});
