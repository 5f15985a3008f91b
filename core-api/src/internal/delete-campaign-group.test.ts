/**
 * delete-campaign-group over HTTP (spec, "Internal call: delete-campaign-group", "Versioning"):
 * the group is removed and its campaigns are kept, out of the group; DELETE access; available
 * from version 1.0; errors 6, 68, 419, 441 with nothing written.
 */
import { deleteCampaignGroupResponseSchema } from "@service/shared/internal/delete-campaign-group";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { bearer } from "../auth/two-chains.test-support.ts";
import { createCampaignGroup } from "../campaign-groups/campaign-group-repository.ts";
import { countGroupRows, groupRows } from "../campaign-groups/campaign-group-test-support.ts";
import { campaignRow } from "../campaigns/campaign-test-support.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { seedCampaign } from "../vouchers/voucher-test-support.ts";

const CREATED = "2026-02-01T10:00:00Z";
let core: TestCore;
let deleter: TestAdmin;
let writer: TestAdmin;
let otherChain: number;
let c1: number;
let c2: number;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date("2026-03-01T09:00:00Z") });
  deleter = await core.admin({ delete: true });
  writer = await core.admin({ write: true, read: true });
  otherChain = await core.createChain();
  c1 = await seedCampaign(core.db, core.chainId);
  c2 = await seedCampaign(core.db, core.chainId);
});
afterAll(() => core.close());

/** A group of `chainId` (default the core's chain) holding `campaignIds`, last changed by `writer`. */
const seedGroup = async (campaignIds: number[] = [c1, c2], chainId = core.chainId) =>
  (
    await createCampaignGroup(
      core.db,
      { chainId, name: "Bundle", activeDateFrom: null, activeDateUntil: new Date("2026-12-31T23:59:59Z"), campaignIds, lastUpdatedBy: writer.id },
      new Date(CREATED),
    )
  ).group.id;

const del = (params: Record<string, unknown>, encoding: Encoding = "json", headers: Record<string, string> = deleter.headers) =>
  core.json("/internal/delete-campaign-group", encode(encoding, "DELETE", headers, params as never));

/** Everything a refused call must leave as it was. */
async function state(groupId: number) {
  return { group: await groupRows(core, groupId), counts: await countGroupRows(core), c1: await campaignRow(core, c1), c2: await campaignRow(core, c2) };
}

describe("delete-campaign-group: deleting", () => {
  for (const encoding of ["json", "form"] as const) {
    it(`removes the group and keeps its campaigns, out of it (${encoding})`, async () => {
      const id = await seedGroup();
      const campaignsBefore = [await campaignRow(core, c1), await campaignRow(core, c2)];
      const countsBefore = await countGroupRows(core);
      const { status, body } = await del({ id: encoding === "json" ? id : String(id) }, encoding);
      expect(status).toBe(200);
      expect(deleteCampaignGroupResponseSchema.parse(body).results).toEqual({
        campaign_group: {
          id,
          campaign_ids: [c1, c2],
          created_date: CREATED,
          last_modified_date: CREATED,
          last_updated_by: [{ user_id: writer.id, name: expect.stringMatching(/^Test Admin \d+$/) }],
          name: "Bundle",
          active_date_from: null,
          active_date_until: "2026-12-31T23:59:59Z",
        },
        result_type: "delete-campaign-group",
      });
      expect(await groupRows(core, id)).toEqual({ group: undefined, campaignIds: [] });
      expect(await countGroupRows(core)).toEqual({ groups: countsBefore.groups - 1, members: countsBefore.members - 2 });
      // The campaigns themselves are untouched.
      expect([await campaignRow(core, c1), await campaignRow(core, c2)]).toEqual(campaignsBefore);
    });
  }

  it("a campaign in another group stays there; get-campaign-groups no longer lists the deleted group", async () => {
    const gone = await seedGroup([c1]);
    const kept = await seedGroup([c1, c2]);
    expect((await core.json(`/internal/delete-campaign-group?id=${gone}`, { method: "DELETE", headers: deleter.headers })).status).toBe(200);
    expect((await groupRows(core, kept)).campaignIds).toEqual([c1, c2]);
    const reader = await core.admin({ read: true });
    const listed = await core.json(`/internal/get-campaign-groups?chain_id=${core.chainId}`, { headers: reader.headers });
    const listedIds = listed.body.results.campaign_groups.map((g: { id: number }) => g.id);
    expect(listedIds).toContain(kept);
    expect(listedIds).not.toContain(gone);
  });

  it("is available from version 1.0: an older version gets 544 as for an unknown path, and nothing is written", async () => {
    const id = await seedGroup();
    const before = await state(id);
    for (const version of ["0.9.9", "0.1.0"]) {
      const { status, body } = await del({ id }, "json", { ...deleter.headers, "X-Service-API-version": version });
      expect([status, body.error.code, body.error.name], version).toEqual([404, 544, "resource_not_found"]);
      const unknown = await core.json("/internal/no-such-call", { method: "DELETE", headers: deleter.headers });
      expect(unknown.body.error).toMatchObject({ code: body.error.code, name: body.error.name });
    }
    expect(await state(id)).toEqual(before);
    expect((await del({ id }, "json", { ...deleter.headers, "X-Service-API-version": "1.0.0" })).status).toBe(200);
  });

  it("a chain-scope token equals admin access: it deletes", async () => {
    const client = await seedClient(core.db, core.chainId, new Date(CREATED), { name: "Group deleter" });
    const token = await seedToken(core.db, core.chainId, client.id, new Date(CREATED));
    const id = await seedGroup();
    expect((await del({ id }, "form", bearer(token.row.id, token.secret))).status).toBe(200);
    expect((await groupRows(core, id)).group).toBeUndefined();
  });

  it("of concurrent deletions exactly one succeeds", async () => {
    const id = await seedGroup();
    const results = await Promise.all(Array.from({ length: 5 }, () => del({ id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403]);
    for (const r of results.filter((r) => r.status === 403)) expect(r.body.error.code).toBe(68);
  });
});

describe("delete-campaign-group: errors (nothing is written)", () => {
  /** [what, params (id of a fresh group unless given), code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding]> = [
    ["id missing", { id: undefined }, 441, "parameter_missing", 400, "json"],
    ["id empty", { id: "" }, 441, "parameter_missing", 400, "form"],
    ["id not an integer", { id: "abc" }, 419, "parameter_invalid", 400, "form"],
    ["id a decimal", { id: 2.5 }, 419, "parameter_invalid", 400, "json"],
    ["id unknown", { id: 99_999_999 }, 68, "permission_denied_or_non_existent", 403, "json"],
  ];
  it("has its cases", () => expect(CASES).toHaveLength(5));
  for (const [what, params, code, name, httpStatus, encoding] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const id = await seedGroup();
      const merged: Record<string, unknown> = { id, ...params };
      if (merged.id === undefined) delete merged.id;
      const before = await state(id);
      const { status, body } = await del(merged, encoding);
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(httpStatus);
      expect(await state(id)).toEqual(before);
    });
  }

  it("no session: 6 no_valid_session (401)", async () => {
    const id = await seedGroup();
    const before = await state(id);
    const { status, body } = await del({ id }, "json", {});
    expect([status, body.error.code, body.error.name]).toEqual([401, 6, "no_valid_session"]);
    expect(await state(id)).toEqual(before);
  });

  it("without DELETE access (write and read only): 68", async () => {
    const id = await seedGroup();
    const before = await state(id);
    const { status, body } = await del({ id }, "json", writer.headers);
    expect([status, body.error.code, body.error.name]).toEqual([403, 68, "permission_denied_or_non_existent"]);
    expect(await state(id)).toEqual(before);
  });

  it("another chain's group answers exactly like a missing one (68)", async () => {
    const foreignCampaign = await seedCampaign(core.db, otherChain);
    const foreign = await seedGroup([foreignCampaign], otherChain);
    const before = await groupRows(core, foreign);
    const missing = await del({ id: 99_999_998 });
    expect(await del({ id: foreign })).toEqual(missing);
    expect(await groupRows(core, foreign)).toEqual(before);
  });

  it("any method but DELETE: 13 http_request_method_non_DELETE_not_allowed (405)", async () => {
    const id = await seedGroup();
    const before = await state(id);
    for (const method of ["GET", "POST", "PUT"]) {
      const { status, body } = await core.json(`/internal/delete-campaign-group?id=${id}`, { method, headers: deleter.headers });
      expect([status, body.error.code, body.error.name], method).toEqual([405, 13, "http_request_method_non_DELETE_not_allowed"]);
    }
    expect(await state(id)).toEqual(before);
  });
});
