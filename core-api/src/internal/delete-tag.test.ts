/**
 * delete-tag over HTTP (spec, "Internal call: delete-tag"): `active` false and `deleted` true;
 * admins with DELETE access only (user and privileged authentication are not permitted); every
 * refusal with nothing written.
 */
import { deleteTagResponseSchema } from "@service/shared/internal/delete-tag";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { bearer } from "../auth/two-chains.test-support.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { tags } from "../db/schema.ts";
import { createAppHostname, createShopper } from "../db/seed.ts";
import { createTag } from "../tags/tag-repository.ts";

const CREATED = "2026-02-01T10:00:00Z";
const NOW = "2026-03-01T09:00:00Z";
const APP = "tags.shop.example.test";
let core: TestCore;
let deleter: TestAdmin;
let writer: TestAdmin;
let otherChain: number;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date(NOW) });
  deleter = await core.admin({ delete: true });
  writer = await core.admin({ write: true, read: true });
  otherChain = await core.createChain();
});
afterAll(() => core.close());

const seedTag = async (chainId = core.chainId) =>
  (await createTag(core.db, { chainId, modelClass: "user", value: "vip", lastUpdatedBy: writer.id }, new Date(CREATED))).tag.id;

const tagRow = async (id: number) => (await core.db.select().from(tags).where(eq(tags.id, id)))[0];

const del = (params: Record<string, unknown>, encoding: Encoding = "json", headers: Record<string, string> = deleter.headers) =>
  core.json("/auth/delete-tag", encode(encoding, "DELETE", headers, params as never));

describe("delete-tag: deleting", () => {
  it("DELETE /auth/delete-tag?id= marks the tag inactive and deleted and returns it", async () => {
    const id = await seedTag();
    const { status, body } = await core.json(`/auth/delete-tag?id=${id}`, { method: "DELETE", headers: deleter.headers });
    expect(status).toBe(200);
    expect(deleteTagResponseSchema.parse(body).results).toEqual({
      tag: {
        active: false,
        chain: { email_address: null, id: core.chainId, name: "Test Chain", phone_number: null },
        created_date: CREATED,
        deleted: true,
        id,
        last_modified_date: NOW,
        model_class: "user",
        value: "vip",
      },
      result_type: "delete-tag",
    });
    expect(await tagRow(id)).toMatchObject({ active: false, deleted: true, lastUpdatedBy: deleter.id, lastModifiedDate: new Date(NOW), value: "vip" });
  });

  for (const encoding of ["json", "form"] as const) {
    it(`takes the id in a ${encoding} body; get-tags no longer lists the tag`, async () => {
      const id = await seedTag();
      expect((await del({ id: encoding === "json" ? id : String(id) }, encoding)).status).toBe(200);
      const listed = await core.json(`/auth/get-tags?chain_id=${core.chainId}`, { headers: writer.headers });
      expect(listed.body.results.tags.map((t: { id: number }) => t.id)).not.toContain(id);
    });
  }

  it("a deleted tag cannot be deleted again (68, nothing written); of concurrent deletions one succeeds", async () => {
    const id = await seedTag();
    const results = await Promise.all(Array.from({ length: 5 }, () => del({ id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403]);
    const after = await tagRow(id);
    const again = await del({ id });
    expect([again.status, again.body.error.code]).toEqual([403, 68]);
    expect(await tagRow(id)).toEqual(after);
  });
});

describe("delete-tag: errors (nothing is written)", () => {
  /** [what, params (id of a fresh tag unless given), code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding]> = [
    ["id missing", { id: undefined }, 441, "parameter_missing", 400, "json"],
    ["id empty", { id: "" }, 441, "parameter_missing", 400, "form"],
    ["id not an integer", { id: "abc" }, 419, "parameter_invalid", 400, "form"],
    ["id an object", { id: { id: 1 } }, 419, "parameter_invalid", 400, "json"],
    ["id unknown", { id: 99_999_999 }, 68, "permission_denied_or_non_existent", 403, "json"],
  ];
  it("has its cases", () => expect(CASES).toHaveLength(5));
  for (const [what, params, code, name, httpStatus, encoding] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const id = await seedTag();
      const merged: Record<string, unknown> = { id, ...params };
      if (merged.id === undefined) delete merged.id;
      const before = await tagRow(id);
      const { status, body } = await del(merged, encoding);
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(httpStatus);
      expect(await tagRow(id)).toEqual(before);
    });
  }

  it("no session: 6 no_valid_session (401)", async () => {
    const id = await seedTag();
    const before = await tagRow(id);
    const { status, body } = await del({ id }, "json", {});
    expect([status, body.error.code, body.error.name]).toEqual([401, 6, "no_valid_session"]);
    expect(await tagRow(id)).toEqual(before);
  });

  it("68 without DELETE access, and for user and privileged authentication", async () => {
    await createAppHostname(core.db, core.chainId, APP);
    await createShopper(core.db, { chainId: core.chainId, username: "tag-shopper@example.com", password: "shop-secret" });
    const login = await core.json("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", "X-Service-App-Hostname": APP },
      body: JSON.stringify({ username: "tag-shopper@example.com", password: "shop-secret" }),
    });
    const shopper = {
      "X-Service-Session-User-ID": String(login.body.results.session_info.session_user_id),
      "X-Service-Session-Key": login.body.results.session_info.session_key,
      "X-Service-App-Hostname": APP,
    };
    const client = await seedClient(core.db, core.chainId, new Date(CREATED), { name: "Tag client" });
    const token = await seedToken(core.db, core.chainId, client.id, new Date(CREATED));
    const id = await seedTag();
    const before = await tagRow(id);
    for (const [who, headers] of [
      ["admin with write and read", writer.headers],
      ["shopper", shopper],
      ["chain-scope token", bearer(token.row.id, token.secret)],
    ] as const) {
      const { status, body } = await del({ id }, "json", headers);
      expect([status, body.error.code, body.error.name], who).toEqual([403, 68, "permission_denied_or_non_existent"]);
    }
    expect(await tagRow(id)).toEqual(before);
  });

  it("another chain's tag answers exactly like a missing one (68)", async () => {
    const foreign = await seedTag(otherChain);
    const before = await tagRow(foreign);
    const missing = await del({ id: 99_999_998 });
    expect(await del({ id: foreign })).toEqual(missing);
    expect(await tagRow(foreign)).toEqual(before);
  });

  it("any method but DELETE: 13 http_request_method_non_DELETE_not_allowed (405)", async () => {
    const id = await seedTag();
    const before = await tagRow(id);
    for (const method of ["GET", "POST", "PUT"]) {
      const { status, body } = await core.json(`/auth/delete-tag?id=${id}`, { method, headers: deleter.headers });
      expect([status, body.error.code, body.error.name], method).toEqual([405, 13, "http_request_method_non_DELETE_not_allowed"]);
    }
    expect(await tagRow(id)).toEqual(before);
  });
});
