/**
 * Phone numbers by version over HTTP (spec, "Internal call: add-user": phone_number and the
 * phone status fields; "Versioning": >= 1.6.1 and >= 1.6.3), with libphonenumber-js's full
 * metadata. Each rule is driven through `X-Service-API-version`, the one place the request's
 * version is read.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chains, users } from "../db/schema.ts";
import { addUserAsAdmin, call, userRow, writtenRows, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile();

let seq = 0;
const email = () => `phone-${++seq}@example.com`;
const version = (v: string) => ({ "X-Service-API-version": v });
const add = (v: string, params: Record<string, unknown>) => addUserAsAdmin(w, { username: email(), ...params } as never, "json", version(v));
const alter = (v: string, params: Record<string, unknown>) => call(w.core, "PUT", "/internal/alter-user", { ...w.adminHeaders, ...version(v) }, params as never);

describe("before 1.6.1", () => {
  it("stores the number as given; an invalid one with status invalid (1), a valid one unchecked (0)", async () => {
    const valid = await add("1.5.8", { phone_number: "06 12 34 56 01", country_code: "NL" });
    expect(valid.body.results.user).toMatchObject({ phone_number: "06 12 34 56 01", phone_number_status: 0, phone_number_duplicate: false });
    const invalid = await add("1.5.8", { phone_number: "call me maybe" });
    expect(invalid.body.results.user).toMatchObject({ phone_number: "call me maybe", phone_number_status: 1 });
    expect((await userRow(w.core, invalid.body.results.user.id))!.phoneNumber).toBe("call me maybe");
  });
});

describe("from 1.6.1", () => {
  it("stores E.164, reading national numbers with country_code (the request's, else the stored one)", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ phone_number: "06 12 34 56 02", country_code: "NL" }, "+31612345602"],
      [{ phone_number: "0470 12 34 56", country_code: "be" }, "+32470123456"],
      [{ phone_number: "+44 20 7946 0958", country_code: "NL" }, "+442079460958"],
      [{ phone_number: "(030) 1234567", country_code: "DE" }, "+49301234567"],
    ];
    expect(cases).toHaveLength(4);
    for (const [params, e164] of cases) expect((await add("1.6.1", params)).body.results.user.phone_number, JSON.stringify(params)).toBe(e164);
    const user = await add("1.6.1", { country_code: "NL" });
    const changed = await alter("1.6.1", { user_id: user.body.results.user.id, phone_number: "06 12 34 56 03" });
    expect(changed.body.results.user.phone_number).toBe("+31612345603");
  });

  it("refuses an unparseable or invalid number with 547 (400), writing nothing", async () => {
    const before = await writtenRows(w.core);
    for (const params of [{ phone_number: "call me maybe" }, { phone_number: "12", country_code: "NL" }, { phone_number: "06 12345678" }]) {
      for (const v of ["1.6.1", "1.6.8"]) {
        const res = await add(v, params);
        expect([res.status, res.body.error?.code, res.body.error?.name], `${v} ${JSON.stringify(params)}`).toEqual([400, 547, "invalid_phone_number"]);
      }
    }
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("refuses input the E.164 form would silently lose part of (extension, control characters, other text) with 547, writing nothing", async () => {
    const user = (await add("1.6.1", { phone_number: "+31612345604" })).body.results.user;
    const before = await writtenRows(w.core);
    const lossy = ["+31612345678 ext. 5", "+31612345678 x5", "+31612345678;ext=5", "+31612345678\u0000", "+31612345678\u200b", "06 12345678\u0007", "+31612345678 call me", "tel:+31612345678"];
    for (const phone of lossy) {
      for (const v of ["1.6.1", "1.6.8"]) {
        for (const res of [await add(v, { phone_number: phone, country_code: "NL" }), await alter(v, { user_id: user.id, phone_number: phone })]) {
          expect([res.status, res.body.error?.code, res.body.error?.name], `${v} ${JSON.stringify(phone)}`).toEqual([400, 547, "invalid_phone_number"]);
        }
      }
    }
    expect((await add("1.6.1", { phone_number: "+31612345678 ext. 5" })).body.error.description).toContain("extension (5)");
    expect((await add("1.6.1", { phone_number: "+31612345678\u0000" })).body.error.description).toContain("control characters");
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("before 1.6.1 the same input is stored as given", async () => {
    for (const phone of ["+31612345678 ext. 5", "+31612345678\u0000"]) {
      const res = await add("1.6.0", { phone_number: phone, country_code: "NL" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.results.user.phone_number).toBe(phone);
      expect((await userRow(w.core, res.body.results.user.id))!.phoneNumber).toBe(phone);
    }
  });

  it("an empty phone_number clears it", async () => {
    const user = await add("1.6.8", { phone_number: "+31 6 12345604" });
    const cleared = await alter("1.6.1", { user_id: user.body.results.user.id, phone_number: "" });
    expect(cleared.body.results.user).toMatchObject({ phone_number: null, phone_number_status: 0, phone_number_duplicate: false });
  });

  it("before 1.6.3 the status stays unchecked and no duplicate is looked for", async () => {
    await add("1.6.8", { phone_number: "+31 6 12345605" });
    const second = await add("1.6.2", { phone_number: "+31 6 12345605" });
    expect(second.body.results.user).toMatchObject({ phone_number: "+31612345605", phone_number_status: 0, phone_number_duplicate: false });
  });
});

describe("from 1.6.3", () => {
  it("a valid number is validated (2); phone_number_duplicate says whether another user of the chain has it", async () => {
    const first = await add("1.6.3", { phone_number: "+31 6 12345606" });
    expect(first.body.results.user).toMatchObject({ phone_number_status: 2, phone_number_duplicate: false });
    const second = await add("1.6.3", { phone_number: "06 12345606", country_code: "NL" });
    expect(second.body.results.user).toMatchObject({ phone_number: "+31612345606", phone_number_status: 2, phone_number_duplicate: true });
  });

  it("a re-submitted verified number stays verified (3); a new number is validated again", async () => {
    const user = await add("1.6.8", { phone_number: "+31 6 12345607" });
    const id = user.body.results.user.id;
    await w.core.db.update(users).set({ phoneNumberStatus: 3 }).where(eq(users.id, id));
    const again = await alter("1.6.8", { user_id: id, phone_number: "06-12345607", country_code: "NL" });
    expect(again.body.results.user).toMatchObject({ phone_number: "+31612345607", phone_number_status: 3 });
    const viaAdd = await add("1.6.3", { username: user.body.results.user.username, update_if_exists: true, phone_number: "+31612345607" });
    expect(viaAdd.body.results.user.phone_number_status).toBe(3);
    const other = await alter("1.6.8", { user_id: id, phone_number: "+31 6 12345608" });
    expect(other.body.results.user).toMatchObject({ phone_number: "+31612345608", phone_number_status: 2 });
  });

  it("an invalid number sent by a version below 1.6.1 is stored with status invalid, not unchecked", async () => {
    const res = await add("1.6.0", { phone_number: "0000" });
    expect(res.body.results.user).toMatchObject({ phone_number: "0000", phone_number_status: 1 });
  });
});

describe("require_unique_phone_number", () => {
  it("another active account of the chain with the number is 555 (409) at any version; nothing written", async () => {
    await w.core.db.update(chains).set({ requireUniquePhoneNumber: true }).where(eq(chains.id, w.core.chainId));
    try {
      const owner = await add("1.6.8", { phone_number: "+31 6 12345609" });
      expect(owner.status).toBe(200);
      const before = await writtenRows(w.core);
      for (const [v, phone] of [["1.6.8", "06 12345609"], ["1.6.1", "+31612345609"], ["1.5.8", "+31612345609"]] as const) {
        const res = await add(v, { phone_number: phone, country_code: "NL" });
        expect([res.status, res.body.error?.code, res.body.error?.name], v).toEqual([409, 555, "phone_number_already_exists"]);
      }
      const other = await add("1.6.8", {});
      const before2 = await writtenRows(w.core);
      const res = await alter("1.6.8", { user_id: other.body.results.user.id, phone_number: "+31612345609" });
      expect(res.body.error?.code).toBe(555);
      expect(await writtenRows(w.core)).toBe(before2);
      expect(before2).not.toBe(before);
      // the owner keeps sending their own number
      expect((await alter("1.6.8", { user_id: owner.body.results.user.id, phone_number: "+31612345609" })).status).toBe(200);
      // an inactive account does not hold the number
      await w.core.db.update(users).set({ active: false }).where(eq(users.id, owner.body.results.user.id));
      expect((await add("1.6.8", { phone_number: "+31612345609" })).status).toBe(200);
    } finally {
      await w.core.db.update(chains).set({ requireUniquePhoneNumber: false }).where(eq(chains.id, w.core.chainId));
    }
  });
});
