import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TestAdmin } from "../../../test/helpers/core.ts";
import { allowedIpRanges, chains } from "../db/schema.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
/** read, write, delete and assign on the chain, but not super user */
let nonSuper: TestAdmin;
/** super user of a second chain */
let otherSuper: TestAdmin;
let otherChain: number;
/** a chain without ranges and an admin who may only read it */
let openChain: number;
let openReader: TestAdmin;

beforeAll(async () => {
  w = await startResourcesWorld();
  // Admins log in before any range exists: a chain with ranges refuses logins from the test's
  // unknown client address. The super users stay exempt from the chain's ranges (Chain
  // ip_whitelist_super_user_exemption), so the test can keep using the chain after adding ranges.
  nonSuper = await w.core.admin({ read: true, write: true, delete: true, assign: true });
  otherChain = await w.core.createChain("Other");
  otherSuper = await w.core.admin({ super_user: true }, otherChain);
  openChain = await w.core.createChain("Open");
  openReader = await w.core.admin({ read: true }, openChain);
  await w.core.db.update(chains).set({ ipWhitelistSuperUserExemption: true });
});
afterAll(() => w.core.close());
// Every test starts from no ranges and adds the ones it reads: tests do not depend on one another.
beforeEach(async () => {
  await w.core.db.delete(allowedIpRanges);
});

const rowOf = async (id: number) => (await w.core.db.select().from(allowedIpRanges).where(eq(allowedIpRanges.id, id)))[0]!;
const allRows = async () => w.core.db.select().from(allowedIpRanges).orderBy(allowedIpRanges.id);
const post = (body: unknown, headers?: Record<string, string>) => w.call("POST", "/resources/allowed_ip_range", body, headers);
const level = (n: number) => ({ "X-Service-Response-Recursion-Level": String(n) });
/** Adds a range (in the header chain, or the chain of `headers`' admin) and returns its id. */
const add = async (cidr: string, notes?: string, headers?: Record<string, string>): Promise<number> => {
  const res = await post({ cidr, ...(notes === undefined ? {} : { notes }) }, headers);
  expect(res.status).toBe(200);
  return res.body.results.id;
};

describe("POST /resources/allowed_ip_range", () => {
  it("stores the normalised range in the header chain and answers at level 2", async () => {
    w.setNow("2026-01-01T01:00:00Z");
    const { status, body } = await post({ cidr: "192.168.1.77/24", notes: "head office" });
    expect(status).toBe(200);
    expect(body.results).toEqual({
      chain: { id: w.core.chainId, name: "Test Chain", deleted: false, app: null },
      cidr: "192.168.1.0/24",
      created_date: "2026-01-01T01:00:00Z",
      deleted: false,
      id: expect.any(Number),
      last_modified_date: "2026-01-01T01:00:00Z",
      last_updated_by: { id: w.admin.id },
      notes: "head office",
    });
    expect(await rowOf(body.results.id)).toMatchObject({
      chainId: w.core.chainId,
      cidr: "192.168.1.0/24",
      activeCidr: "192.168.1.0/24",
      notes: "head office",
      deleted: false,
      lastUpdatedBy: w.admin.id,
    });
  });

  it("normalises IPv6, bare addresses and IPv4-mapped ranges; notes default to null", async () => {
    for (const [input, stored] of [
      ["2001:DB8:0:0:0:0:0:1/32", "2001:db8::/32"],
      ["10.9.8.7", "10.9.8.7/32"],
      ["2001:db8::abcd", "2001:db8::abcd/128"],
      ["::ffff:172.16.5.4/108", "172.16.0.0/12"],
    ]) {
      const res = await post({ cidr: input });
      expect(res.status).toBe(200);
      expect(res.body.results).toMatchObject({ cidr: stored, notes: null });
      expect((await rowOf(res.body.results.id)).cidr).toBe(stored);
    }
  });

  it("refuses a range the chain already has live, in any spelling, with 419; another chain may have it", async () => {
    await add("192.168.1.0/24");
    const before = await allRows();
    for (const cidr of ["192.168.1.0/24", "192.168.1.200/24", " 192.168.1.1/24", "::ffff:192.168.1.0/120"]) {
      const res = await post({ cidr });
      expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
      expect(res.body.error.description).toMatch(/already allowed/);
    }
    expect(await allRows()).toEqual(before);
    const other = await post({ cidr: "192.168.1.0/24" }, otherSuper.headers);
    expect(other.status).toBe(200);
    expect((await rowOf(other.body.results.id)).chainId).toBe(otherChain);
  });

  it("refuses bad bodies with the spec's errors and writes nothing", async () => {
    const malformed = [
      "garbage",
      "",
      "192.168.1.0/33",
      "192.168.1/24",
      "300.1.1.1/8",
      "0x7f.0.0.1/8",
      "10.0.0.0/8/8",
      "2001:db8:::1/64",
      "2001:db8::zz/64",
      "2001:db8::1/129",
      "1:2:3:4:5:6:7:8:9",
      "fe80::1%eth0/64",
      "::ffff:1.2.3.999",
    ];
    const cases: Array<[unknown, number, string]> = [
      ...malformed.map((cidr): [unknown, number, string] => [{ cidr }, 419, "parameter_invalid"]),
      [{ cidr: 167772160 }, 419, "parameter_invalid"],
      [{ cidr: null }, 419, "parameter_invalid"],
      [{ cidr: ["10.0.0.0/8"] }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", notes: 5 }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", chain: { id: w.core.chainId } }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", id: 1 }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", deleted: false }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", created_date: "2026-01-01T00:00:00Z" }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", last_updated_by: { id: 1 } }, 419, "parameter_invalid"],
      [{ cidr: "10.1.0.0/16", colour: "red" }, 419, "parameter_invalid"],
      [{ cidr: `10.1.0.0/16${" ".repeat(250)}` }, 482, "string_parameter_too_long"],
      [{ cidr: "10.1.0.0/16", notes: "n".repeat(256) }, 482, "string_parameter_too_long"],
      [{ notes: "no range" }, 441, "parameter_missing"],
    ];
    const before = await allRows();
    for (const [body, code, name] of cases) {
      expect({ body, ...errorOf(await post(body)) }).toEqual({ body, status: 400, code, name });
    }
    expect(errorOf(await w.call("POST", "/resources/allowed_ip_range?cidr=10.1.0.0/16", { cidr: "10.1.0.0/16" })).code).toBe(419);
    expect(await allRows()).toEqual(before);
  });
});

describe("GET /resources/allowed_ip_range and /resources/allowed_ip_ranges", () => {
  /** the chain's ranges each test reads, and one of another chain the reads never show */
  const OTHERS = ["10.9.8.7/32", "2001:db8::abcd/128", "172.16.0.0/12"];
  let office: number, v6: number;
  beforeEach(async () => {
    w.setNow("2026-01-01T01:00:00Z");
    office = await add("192.168.1.77/24", "head office");
    v6 = await add("2001:DB8::/32");
    for (const cidr of OTHERS) await add(cidr);
    await add("192.168.1.0/24", undefined, otherSuper.headers);
  });

  it("gets one by id, and by ?cidr= in any spelling of the range", async () => {
    expect((await w.call("GET", `/resources/allowed_ip_range/${office}`)).body.results).toMatchObject({ id: office, cidr: "192.168.1.0/24" });
    for (const q of ["cidr=192.168.1.0/24", "cidr=192.168.1.99/24", `id=${office}`]) {
      expect((await w.call("GET", `/resources/allowed_ip_range?${q}`)).body.results.id).toBe(office);
    }
    expect((await w.call("GET", "/resources/allowed_ip_range?cidr=2001:DB8::1/32")).body.results.id).toBe(v6);
    expect((await w.call("GET", `/resources/allowed_ip_range?cidr=${encodeURIComponent("2001:db8::/32")}`)).body.results.id).toBe(v6);
  });

  it("renders levels 0 and 1", async () => {
    expect((await w.call("GET", `/resources/allowed_ip_range/${office}`, undefined, level(0))).body.results).toEqual({ id: office });
    expect((await w.call("GET", `/resources/allowed_ip_range/${office}`, undefined, level(1))).body.results).toEqual({
      chain: { id: w.core.chainId },
      cidr: "192.168.1.0/24",
      deleted: false,
      id: office,
      notes: "head office",
    });
  });

  it("answers 544 for an unknown range and 419 for a malformed ?cidr=", async () => {
    for (const path of ["/resources/allowed_ip_range/999999", "/resources/allowed_ip_range?cidr=10.200.0.0/16", "/resources/allowed_ip_range/x"]) {
      expect(errorOf(await w.call("GET", path))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(errorOf(await w.call("GET", "/resources/allowed_ip_range?cidr=not-a-range"))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
  });

  it("lists the chain's live ranges, filters by cidr (normalised) and id", async () => {
    const all = await w.call("GET", "/resources/allowed_ip_ranges");
    expect(all.status).toBe(200);
    expect(all.body.results).toMatchObject({ offset: 0, limit: 25, total_count: 2 + OTHERS.length, result_type: "allowed_ip_ranges" });
    expect(all.body.results.resources.every((r: { chain: { id: number } }) => r.chain.id === w.core.chainId)).toBe(true);
    const byCidr = await w.call("GET", "/resources/allowed_ip_ranges?cidr=192.168.1.1/24");
    expect(byCidr.body.results.resources.map((r: { id: number }) => r.id)).toEqual([office]);
    const byId = await w.call("GET", `/resources/allowed_ip_ranges?id=${v6}`);
    expect(byId.body.results.resources.map((r: { cidr: string }) => r.cidr)).toEqual(["2001:db8::/32"]);
  });

  it("sorts by created_date and last_modified_date", async () => {
    w.setNow("2026-01-01T00:30:00Z");
    const early = (await post({ cidr: "198.51.100.0/24" })).body.results.id;
    const asc = (await w.call("GET", "/resources/allowed_ip_ranges?sort_by=created_date")).body.results.resources;
    expect(asc[0].id).toBe(early);
    const desc = (await w.call("GET", "/resources/allowed_ip_ranges?sort_by=created_date&sort_order=desc")).body.results.resources;
    expect(desc[desc.length - 1].id).toBe(early);
    w.setNow("2026-01-01T09:00:00Z");
    await w.call("PATCH", `/resources/allowed_ip_range/${early}`, { notes: "touched" });
    const byModified = (await w.call("GET", "/resources/allowed_ip_ranges?sort_by=last_modified_date&sort_order=desc")).body.results.resources;
    expect(byModified[0].id).toBe(early);
  });

  it("refuses filters and sort keys the spec does not give, and a malformed cidr filter", async () => {
    for (const q of ["sort_by=cidr", "sort_by=id", "notes=head%20office", "deleted=true", "cidr=garbage", "search[*]=x"]) {
      expect({ q, ...errorOf(await w.call("GET", `/resources/allowed_ip_ranges?${q}`)) }).toEqual({ q, status: 400, code: 419, name: "parameter_invalid" });
    }
  });
});

describe("PUT, PATCH and DELETE /resources/allowed_ip_range", () => {
  let id: number;
  beforeEach(async () => {
    id = await add("203.0.113.0/24", "vpn");
    await add("192.168.1.0/24", "head office");
  });

  it("PATCH changes notes alone, then the cidr (normalised)", async () => {
    w.setNow("2026-01-01T10:00:00Z");
    const notes = await w.call("PATCH", `/resources/allowed_ip_range/${id}`, { notes: "vpn gateway" });
    expect(notes.body.results).toMatchObject({ cidr: "203.0.113.0/24", notes: "vpn gateway", last_modified_date: "2026-01-01T10:00:00Z" });
    const cidr = await w.call("PATCH", "/resources/allowed_ip_range?cidr=203.0.113.0/24", { cidr: "203.0.113.130/25" });
    expect(cidr.body.results).toMatchObject({ id, cidr: "203.0.113.128/25", notes: "vpn gateway" });
    expect(await rowOf(id)).toMatchObject({ cidr: "203.0.113.128/25", notes: "vpn gateway", lastUpdatedBy: w.admin.id });
  });

  it("PUT replaces: cidr required, unsent notes become null", async () => {
    expect(errorOf(await w.call("PUT", `/resources/allowed_ip_range/${id}`, { notes: "x" }))).toEqual({ status: 400, code: 441, name: "parameter_missing" });
    const res = await w.call("PUT", `/resources/allowed_ip_range/${id}`, { cidr: "203.0.113.64/26" });
    expect(res.body.results).toMatchObject({ cidr: "203.0.113.64/26", notes: null });
    expect(await rowOf(id)).toMatchObject({ cidr: "203.0.113.64/26", notes: null });
  });

  it("refuses a duplicate or malformed cidr and read-only properties; nothing is written", async () => {
    const before = await allRows();
    const cases: Array<[string, unknown, number]> = [
      ["PATCH", { cidr: "192.168.1.1/24" }, 419],
      ["PUT", { cidr: "192.168.1.0/24" }, 419],
      ["PATCH", { cidr: "203.0.113.0/40" }, 419],
      ["PATCH", { cidr: "2001:db8:::/32" }, 419],
      ["PATCH", { cidr: "" }, 419],
      ["PATCH", { chain: { id: w.core.chainId } }, 419],
      ["PATCH", { id: id + 1 }, 419],
      ["PATCH", { deleted: true }, 419],
      ["PATCH", { created_date: "2026-01-01T00:00:00Z" }, 419],
      ["PATCH", { notes: "n".repeat(256) }, 482],
    ];
    for (const [method, body, code] of cases) {
      const res = await w.call(method, `/resources/allowed_ip_range/${id}`, body);
      expect({ method, body, code: errorOf(res).code, status: res.status }).toEqual({ method, body, code, status: 400 });
    }
    expect(await allRows()).toEqual(before);
  });

  it("DELETE soft-deletes by ?cidr= or id; the range is then gone and may be added again", async () => {
    w.setNow("2026-01-01T11:00:00Z");
    const res = await w.call("DELETE", "/resources/allowed_ip_range?cidr=203.0.113.5/24");
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ id, deleted: true, last_modified_date: "2026-01-01T11:00:00Z" });
    expect(await rowOf(id)).toMatchObject({ deleted: true, activeCidr: null, lastUpdatedBy: w.admin.id });
    expect(errorOf(await w.call("GET", `/resources/allowed_ip_range/${id}`)).code).toBe(544);
    expect(errorOf(await w.call("DELETE", `/resources/allowed_ip_range/${id}`)).code).toBe(544);
    expect(errorOf(await w.call("PATCH", `/resources/allowed_ip_range/${id}`, { notes: "back" })).code).toBe(544);
    const again = await post({ cidr: "203.0.113.0/24" });
    expect(again.status).toBe(200);
    expect(again.body.results.id).not.toBe(id);
  });
});

describe("allowed IP range access", () => {
  it("refuses every write of an admin who is not a super user with 544 and writes nothing", async () => {
    const target = await add("192.168.1.0/24");
    const before = await allRows();
    for (const [method, path, body] of [
      ["POST", "/resources/allowed_ip_range", { cidr: "100.64.0.0/10" }],
      ["PATCH", `/resources/allowed_ip_range/${target}`, { notes: "changed" }],
      ["PUT", `/resources/allowed_ip_range/${target}`, { cidr: "192.168.1.0/24" }],
      ["DELETE", `/resources/allowed_ip_range/${target}`, undefined],
    ] as const) {
      expect({ method, ...errorOf(await w.call(method, path, body, nonSuper.headers)) }).toEqual({ method, status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await allRows()).toEqual(before);
  });

  it("lets an admin with read access list the ranges", async () => {
    const res = await w.call("GET", "/resources/allowed_ip_ranges", undefined, openReader.headers);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ resources: [], total_count: 0 });
    const post = await w.call("POST", "/resources/allowed_ip_range", { cidr: "10.0.0.0/8" }, openReader.headers);
    expect(errorOf(post).code).toBe(544);
    expect((await allRows()).filter((r) => r.chainId === openChain)).toEqual([]);
  });

  it("answers 544 for another chain's range on every method and leaves it alone", async () => {
    const foreign = await rowOf(await add("192.168.1.0/24", undefined, otherSuper.headers));
    for (const [method, body] of [["GET"], ["PATCH", { notes: "mine now" }], ["PUT", { cidr: "10.0.0.0/8" }], ["DELETE"]] as const) {
      expect(errorOf(await w.call(method, `/resources/allowed_ip_range/${foreign.id}`, body))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await rowOf(foreign.id)).toEqual(foreign);
  });

  it("offers no plural writes", async () => {
    const before = await allRows();
    expect(errorOf(await w.call("POST", "/resources/allowed_ip_ranges", { cidr: "100.64.0.0/10" })).code).toBe(544);
    expect(errorOf(await w.call("DELETE", "/resources/allowed_ip_ranges")).code).toBe(544);
    expect(await allRows()).toEqual(before);
  });
});
