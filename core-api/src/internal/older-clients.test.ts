/**
 * What older clients send that is unambiguous, over HTTP against the real database (handbook,
 * "The user": gender, alter-user, referral codes): a one-letter gender, alter-user naming the
 * member as get-user does, and a referral code of an older shape that some member has. Each
 * refusal still answers the spec's error and writes nothing.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { users } from "../db/schema.ts";
import { addUserAsAdmin, call, NATIVE_APP, seedRange, shopperSession, writtenRows, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile(async () => {
  await seedRange(w.core, w.core.chainId, "generated", 700000n, 799999n);
});

let seq = 0;
const email = (what: string) => `older-${what}-${++seq}@example.com`;
const alter = (params: Record<string, unknown>, headers = w.adminHeaders) => call(w.core, "PUT", "/internal/alter-user", headers, params as never);

describe("gender as one letter", () => {
  it("M, F, m and f are male / female at every version, in add-user and alter-user", async () => {
    for (const version of ["1.0.0", "1.4.9", "1.6.8"]) {
      for (const [sent, stored] of [["M", "male"], ["F", "female"], ["m", "male"], ["f", "female"], ["Female", "female"]] as const) {
        const added = await addUserAsAdmin(w, { username: email("g"), gender: sent }, "json", { "X-Service-API-version": version });
        expect([added.status, added.body.results?.user.gender], `${version} add ${sent}`).toEqual([200, stored]);
        const altered = await alter({ user_id: added.body.results.user.id, gender: sent === "M" ? "f" : "M" });
        expect([altered.status, altered.body.results?.user.gender], `${version} alter`).toEqual([200, sent === "M" ? "female" : "male"]);
      }
    }
  });

  it("in a form too", async () => {
    const added = await addUserAsAdmin(w, { username: email("form"), gender: "f" }, "form");
    expect(added.body.results.user.gender).toBe("female");
  });

  it("any other letter is 419, its description lists what is accepted, nothing is written", async () => {
    const before = await writtenRows(w.core);
    for (const gender of ["X", "mf", "ma"]) {
      const { status, body } = await addUserAsAdmin(w, { username: email("bad-g"), gender });
      expect([status, body.error.code], gender).toEqual([400, 419]);
      expect(body.error.description, gender).toContain("male, female, nonbinary");
      expect(body.error.description, gender).toContain("M / F");
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});

describe("alter-user names the member as get-user does", () => {
  let member: { id: number; username: string; member_number: string };
  beforeAll(async () => {
    const added = await addUserAsAdmin(w, { username: email("named"), authentication_point_identifier: "legacy-42", first_name: "Nora" });
    member = added.body.results.user;
  });

  it.each([
    ["username", () => member.username],
    ["member_number", () => member.member_number],
    ["authentication_point_identifier", () => "legacy-42"],
  ])("by %s with chain_id", async (key, value) => {
    const { status, body } = await alter({ chain_id: w.core.chainId, [key]: value(), last_name: `By-${key}` });
    expect(status).toBe(200);
    expect(body.results.user).toMatchObject({ id: member.id, last_name: `By-${key}`, username: member.username, member_number: member.member_number });
  });

  it("by username with a chain-scope token", async () => {
    const { status, body } = await alter({ chain_id: w.core.chainId, username: member.username, first_name: "Token" }, w.token);
    expect([status, body.results?.user.id, body.results?.user.first_name]).toEqual([200, member.id, "Token"]);
  });

  it("with user_id the other keys are changes, as before", async () => {
    const renamed = email("renamed");
    const { status, body } = await alter({ user_id: member.id, username: renamed });
    expect([status, body.results?.user.username]).toEqual([200, renamed]);
    member.username = renamed;
  });

  it("refusals: none 441, several 419, no chain_id 3, unknown or another chain's 68; nothing written", async () => {
    const before = await writtenRows(w.core);
    const cases: Array<[Record<string, unknown>, number, number]> = [
      [{ first_name: "Nobody" }, 400, 441],
      [{ chain_id: w.core.chainId, username: member.username, member_number: member.member_number, first_name: "Two" }, 400, 419],
      [{ username: member.username, first_name: "No chain" }, 400, 3],
      [{ chain_id: w.core.chainId, username: "nobody@example.com", first_name: "Unknown" }, 403, 68],
      [{ chain_id: w.otherChainId, username: member.username, first_name: "Elsewhere" }, 403, 68],
      [{ chain_id: "one", username: member.username }, 400, 76],
    ];
    for (const [params, status, code] of cases) {
      const res = await alter(params);
      expect([res.status, res.body.error?.code], JSON.stringify(params)).toEqual([status, code]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });

  it("a shopper still alters themselves: username is a change of their own", async () => {
    const shopper = await shopperSession(w.core, NATIVE_APP, email("shopper"));
    const renamed = email("shopper-new");
    const { status, body } = await alter({ username: renamed }, shopper.headers);
    expect([status, body.results?.user.id, body.results?.user.username]).toEqual([200, shopper.id, renamed]);
  });
});

describe("referral codes of an older shape", () => {
  it("a member's code that is not in today's form is looked up and links the users", async () => {
    const referrer = await addUserAsAdmin(w, { username: email("old-referrer"), first_name: "Olga", last_name: "Old" });
    // imported from an older system: U is no Crockford digit, and it is shorter
    for (const code of ["SUMMER-U", "AB12"]) {
      await w.core.db.update(users).set({ referralCode: code }).where(eq(users.id, referrer.body.results.user.id));
      const { status, body } = await addUserAsAdmin(w, { username: email("old-referred"), referral_code: code });
      expect([status, body.results?.referring_user], code).toEqual([200, { id: referrer.body.results.user.id, first_name: "Olga", last_name: "Old" }]);
      const altered = await alter({ user_id: body.results.user.id, referral_code: code.toLowerCase() });
      expect(altered.status, `${code} in lower case`).toBe(200);
    }
  });

  it("today's codes are still read as typed (any case, hyphens)", async () => {
    const referrer = await addUserAsAdmin(w, { username: email("new-referrer") });
    const code: string = referrer.body.results.user.referral_code;
    const { body } = await addUserAsAdmin(w, { username: email("new-referred"), referral_code: `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}` });
    expect(body.results.referring_user.id).toBe(referrer.body.results.user.id);
  });

  it("a code no member has, of any shape, stays 419; nothing written", async () => {
    const before = await writtenRows(w.core);
    for (const referral_code of ["NOSUCH-U", "zz", "ZZZZZZZZ", "LONGER-THAN-8"]) {
      const { status, body } = await addUserAsAdmin(w, { username: email("no-ref"), referral_code });
      expect([status, body.error?.code], referral_code).toEqual([400, 419]);
    }
    expect(await writtenRows(w.core)).toBe(before);
  });
});
