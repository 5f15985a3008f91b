/**
 * add-tag and get-tags over HTTP: the tag record (spec, "Other records seen in internal call
 * responses"), admins only (user and privileged authentication are not permitted, as for
 * delete-tag), and every refusal with nothing written.
 */
import { addTagResponseSchema } from "@service/shared/internal/add-tag";
import { getTagsResponseSchema } from "@service/shared/internal/get-tags";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, query, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { bearer } from "../auth/two-chains.test-support.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { chains, tags } from "../db/schema.ts";

const NOW = "2026-04-01T08:00:00Z";
let core: TestCore;
let writer: TestAdmin;
let reader: TestAdmin;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date(NOW) });
  await core.db.update(chains).set({ emailAddress: "office@chain.example", phoneNumber: "+31201234567" }).where(eq(chains.id, core.chainId));
  writer = await core.admin({ write: true, read: true });
  reader = await core.admin({ read: true });
});
afterAll(() => core.close());

const add = (params: Record<string, unknown>, encoding: Encoding = "json", headers = writer.headers) =>
  core.json("/auth/add-tag", encode(encoding, "POST", headers, { chain_id: core.chainId, ...params } as never));

async function countTags(): Promise<number> {
  const [rows] = (await core.db.execute(sql`SELECT COUNT(*) AS n FROM tags`)) as unknown as [Array<{ n: number }>];
  return Number(rows[0]!.n);
}

describe("add-tag", () => {
  for (const encoding of ["json", "form", "multipart"] as const) {
    it(`creates an active tag for users by default and returns its record (${encoding})`, async () => {
      const { status, body } = await add({ value: ` vip-${encoding} ` }, encoding);
      expect(status).toBe(200);
      const results = addTagResponseSchema.parse(body).results;
      expect(results).toEqual({
        tag: {
          active: true,
          chain: { email_address: "office@chain.example", id: core.chainId, name: "Test Chain", phone_number: "+31201234567" },
          created_date: NOW,
          deleted: false,
          id: expect.any(Number),
          last_modified_date: NOW,
          model_class: "user",
          value: `vip-${encoding}`,
        },
        result_type: "add-tag",
      });
      const [row] = await core.db.select().from(tags).where(eq(tags.id, results.tag.id));
      expect(row).toMatchObject({ chainId: core.chainId, modelClass: "user", value: `vip-${encoding}`, active: true, deleted: false, lastUpdatedBy: writer.id });
    });
  }

  it("takes another model_class; datetimes per version", async () => {
    const { body } = await add({ value: "flagship", model_class: "business" }, "json", { ...writer.headers, "X-Service-API-version": "1.6.1" });
    expect(body.results.tag).toMatchObject({ model_class: "business", value: "flagship", created_date: "2026-04-01 08:00:00" });
  });
});

describe("add-tag: errors (nothing is written)", () => {
  /** [what, params (chain_id of the core's chain unless given), code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding]> = [
    ["chain_id missing", { chain_id: undefined, value: "v" }, 3, "http_vars_missing", 400, "json"],
    ["chain_id not an integer", { chain_id: "x", value: "v" }, 76, "chain_id_invalid", 400, "form"],
    ["value missing", {}, 441, "parameter_missing", 400, "json"],
    ["value empty", { value: "" }, 441, "parameter_missing", 400, "form"],
    ["value over 255 characters", { value: "v".repeat(256) }, 482, "string_parameter_too_long", 400, "json"],
    ["value not text", { value: ["v"] }, 419, "parameter_invalid", 400, "json"],
    ["model_class not a name", { value: "v", model_class: "User Class" }, 419, "parameter_invalid", 400, "form"],
    ["model_class over 64 characters", { value: "v", model_class: "m".repeat(65) }, 482, "string_parameter_too_long", 400, "json"],
    ["model_class empty", { value: "v", model_class: "" }, 419, "parameter_invalid", 400, "form"],
  ];
  it("has its cases", () => expect(CASES).toHaveLength(9));
  for (const [what, params, code, name, httpStatus, encoding] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const merged: Record<string, unknown> = { chain_id: core.chainId, ...params };
      if (merged.chain_id === undefined) delete merged.chain_id;
      const before = await countTags();
      const { status, body } = await core.json("/auth/add-tag", encode(encoding, "POST", writer.headers, merged as never));
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(httpStatus);
      expect(await countTags()).toBe(before);
    });
  }

  it("no session: 6; read access only, another chain, or a chain-scope token: 68", async () => {
    const otherChain = await core.createChain();
    const client = await seedClient(core.db, core.chainId, new Date(NOW), { name: "Tagger" });
    const token = await seedToken(core.db, core.chainId, client.id, new Date(NOW));
    const before = await countTags();
    const none = await add({ value: "v" }, "json", {});
    expect([none.status, none.body.error.code]).toEqual([401, 6]);
    for (const [who, params, headers] of [
      ["reader", { value: "v" }, reader.headers],
      ["other chain", { value: "v", chain_id: otherChain }, writer.headers],
      ["chain-scope token", { value: "v" }, bearer(token.row.id, token.secret)],
    ] as const) {
      const { status, body } = await add(params, "json", headers);
      expect([status, body.error.code, body.error.name], who).toEqual([403, 68, "permission_denied_or_non_existent"]);
    }
    expect(await countTags()).toBe(before);
  });
});

describe("get-tags", () => {
  let chain: number;
  let admin: TestAdmin;
  let ids: number[];
  beforeAll(async () => {
    chain = await core.createChain("Tagged");
    admin = await core.admin({ write: true, read: true }, chain);
    ids = [];
    for (const [value, modelClass] of [["gold", "user"], ["silver", "user"], ["outlet", "business"], ["gone", "user"]]) {
      const res = await core.json("/auth/add-tag", encode("json", "POST", admin.headers, { chain_id: chain, value: value!, model_class: modelClass! }));
      ids.push(res.body.results.tag.id);
    }
    await core.db.update(tags).set({ deleted: true, active: false }).where(eq(tags.id, ids[3]!));
  });
  const get = (params: Record<string, string | number>, headers = admin.headers) => core.json(`/auth/get-tags?${query({ chain_id: chain, ...params })}`, { headers });

  it("lists the chain's tags that are not deleted, oldest first", async () => {
    const { status, body } = await get({});
    expect(status).toBe(200);
    const results = getTagsResponseSchema.parse(body).results;
    expect(results.result_type).toBe("get-tags");
    expect(results.tags.map((t) => [t.id, t.value, t.model_class])).toEqual([
      [ids[0], "gold", "user"],
      [ids[1], "silver", "user"],
      [ids[2], "outlet", "business"],
    ]);
    expect(results.tags[0]!.chain).toEqual({ email_address: null, id: chain, name: "Tagged", phone_number: null });
  });

  it("filters by model_class and pages", async () => {
    expect((await get({ model_class: "user" })).body.results.tags.map((t: { id: number }) => t.id)).toEqual([ids[0], ids[1]]);
    expect((await get({ limit: 1, offset: 2 })).body.results.tags.map((t: { id: number }) => t.id)).toEqual([ids[2]]);
  });

  it.each([
    [{ chain_id: "" }, 400, 3, "http_vars_missing"],
    [{ chain_id: "x" }, 400, 76, "chain_id_invalid"],
    [{ limit: 0 }, 400, 419, "parameter_invalid"],
    [{ model_class: "Not A Name" }, 400, 419, "parameter_invalid"],
  ])("%j: %i %i %s", async (params, httpStatus, code, name) => {
    const { status, body } = await get(params);
    expect([status, body.error.code, body.error.name]).toEqual([httpStatus, code, name]);
  });

  it("another chain's tags are refused like a missing chain's (68), and no session is 6", async () => {
    const other = await get({}, reader.headers);
    const missing = await get({ chain_id: 99_999_999 }, reader.headers);
    expect(other).toEqual(missing);
    expect([other.status, other.body.error.code]).toEqual([403, 68]);
    expect((await get({}, {})).status).toBe(401);
  });
});
