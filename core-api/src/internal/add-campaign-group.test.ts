/**
 * add-campaign-group and get-campaign-groups over HTTP: the group record (spec, "Other records
 * seen in internal call responses"), the campaigns a group holds, who may call them, and every
 * refusal with nothing written.
 */
import { addCampaignGroupResponseSchema } from "@service/shared/internal/add-campaign-group";
import { getCampaignGroupsResponseSchema } from "@service/shared/internal/get-campaign-groups";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, query, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { bearer } from "../auth/two-chains.test-support.ts";
import { countGroupRows, groupRows } from "../campaign-groups/campaign-group-test-support.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { campaignGroupCampaigns, campaignGroups, campaigns } from "../db/schema.ts";
import { seedCampaign } from "../vouchers/voucher-test-support.ts";

const NOW = "2026-04-01T08:00:00Z";
let core: TestCore;
let writer: TestAdmin;
let reader: TestAdmin;
let otherChain: number;
/** live campaigns of the core's chain */
let c1: number;
let c2: number;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date(NOW) });
  writer = await core.admin({ write: true, read: true });
  reader = await core.admin({ read: true });
  otherChain = await core.createChain();
  c1 = await seedCampaign(core.db, core.chainId);
  c2 = await seedCampaign(core.db, core.chainId);
});
afterAll(() => core.close());

const add = (params: Record<string, unknown>, encoding: Encoding = "json", headers = writer.headers) =>
  core.json("/internal/add-campaign-group", encode(encoding, "POST", headers, { chain_id: core.chainId, ...params } as never));
const list = (params: Record<string, string | number>, headers = reader.headers) =>
  core.json(`/internal/get-campaign-groups?${query({ chain_id: core.chainId, ...params })}`, { headers });

describe("add-campaign-group", () => {
  it("creates a group holding the campaigns given as a JSON array, and returns its record", async () => {
    const { status, body } = await add({
      name: "Summer set",
      campaign_ids: [c2, c1, c2],
      active_date_from: "2026-06-01T00:00:00+02:00",
      active_date_until: "2026-08-31 23:59:59",
    });
    expect(status).toBe(200);
    const results = addCampaignGroupResponseSchema.parse(body).results;
    expect(results).toEqual({
      campaign_group: {
        id: expect.any(Number),
        campaign_ids: [c1, c2],
        created_date: NOW,
        last_modified_date: NOW,
        last_updated_by: [{ user_id: writer.id, name: expect.stringMatching(/^Test Admin \d+$/) }],
        name: "Summer set",
        active_date_from: "2026-05-31T22:00:00Z",
        active_date_until: "2026-08-31T23:59:59Z",
      },
      result_type: "add-campaign-group",
    });
    const stored = await groupRows(core, results.campaign_group.id);
    expect(stored.group).toMatchObject({ chainId: core.chainId, name: "Summer set", lastUpdatedBy: writer.id, activeDateFrom: new Date("2026-05-31T22:00:00Z") });
    expect(stored.campaignIds).toEqual([c1, c2]);
  });

  for (const encoding of ["form", "multipart"] as const) {
    it(`takes campaign_ids as text separated by commas (${encoding}); none makes an empty group`, async () => {
      const withIds = await add({ name: "Text ids", campaign_ids: ` ${c1} , ${c2}` }, encoding);
      expect(withIds.status).toBe(200);
      expect(withIds.body.results.campaign_group.campaign_ids).toEqual([c1, c2]);
      for (const params of [{ name: "Empty" }, { name: "Empty text", campaign_ids: "" }]) {
        const empty = await add(params, encoding);
        expect(empty.status).toBe(200);
        expect(empty.body.results.campaign_group).toMatchObject({ campaign_ids: [], active_date_from: null, active_date_until: null });
        expect((await groupRows(core, empty.body.results.campaign_group.id)).campaignIds).toEqual([]);
      }
    });
  }

  it("renders datetimes per version; a chain-scope token creates a group naming no admin", async () => {
    const old = await add({ name: "Old client" }, "json", { ...writer.headers, "X-Service-API-version": "1.6.1" });
    expect(old.body.results.campaign_group).toMatchObject({ created_date: "2026-04-01 08:00:00", last_modified_date: "2026-04-01 08:00:00" });
    const client = await seedClient(core.db, core.chainId, new Date(NOW), { name: "Group client" });
    const token = await seedToken(core.db, core.chainId, client.id, new Date(NOW));
    const byToken = await core.json(
      "/internal/add-campaign-group",
      encode("form", "POST", bearer(token.row.id, token.secret), { chain_id: core.chainId, name: "By token", campaign_ids: `${c1}` }),
    );
    expect(byToken.status).toBe(200);
    expect(byToken.body.results.campaign_group).toMatchObject({ last_updated_by: [], campaign_ids: [c1] });
  });
});

describe("add-campaign-group: errors (nothing is written)", () => {
  /** [what, params (chain_id of the core's chain unless given), code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding]> = [
    ["chain_id missing", { chain_id: undefined, name: "G" }, 3, "http_vars_missing", 400, "json"],
    ["name missing", { name: undefined }, 3, "http_vars_missing", 400, "json"],
    ["name empty", { name: " " }, 3, "http_vars_missing", 400, "form"],
    ["chain_id not an integer", { chain_id: "one", name: "G" }, 76, "chain_id_invalid", 400, "form"],
    ["name over 255 characters", { name: "n".repeat(256) }, 482, "string_parameter_too_long", 400, "json"],
    ["name not text", { name: { text: "G" } }, 419, "parameter_invalid", 400, "json"],
    ["campaign_ids text that is not ids", { name: "G", campaign_ids: "1,x" }, 244, "campaign_id_invalid", 400, "form"],
    ["campaign_ids with a decimal", { name: "G", campaign_ids: [1.5] }, 244, "campaign_id_invalid", 400, "json"],
    ["campaign_ids an object", { name: "G", campaign_ids: { a: 1 } }, 244, "campaign_id_invalid", 400, "json"],
    ["campaign_ids over 500", { name: "G", campaign_ids: Array.from({ length: 501 }, (_, i) => i + 1) }, 419, "parameter_invalid", 400, "json"],
    ["campaign_ids naming no campaign", { name: "G", campaign_ids: [999_999] }, 246, "campaign_id_not_found", 404, "json"],
    ["active_date_from not a datetime", { name: "G", active_date_from: "June" }, 419, "parameter_invalid", 400, "form"],
    ["an active period running backwards", { name: "G", active_date_from: "2026-09-01 00:00:00", active_date_until: "2026-08-01 00:00:00" }, 419, "parameter_invalid", 400, "json"],
  ];
  it("has its cases", () => expect(CASES).toHaveLength(13));
  for (const [what, params, code, name, httpStatus, encoding] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const merged: Record<string, unknown> = { chain_id: core.chainId, ...params };
      for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
      const before = await countGroupRows(core);
      const { status, body } = await core.json("/internal/add-campaign-group", encode(encoding, "POST", writer.headers, merged as never));
      expect(body.error).toMatchObject({ code, name });
      expect(status).toBe(httpStatus);
      expect(await countGroupRows(core)).toEqual(before);
    });
  }

  it("a campaign of another chain or a deleted one is refused like a missing one (246), with the others valid", async () => {
    const foreign = await seedCampaign(core.db, otherChain);
    const deleted = await seedCampaign(core.db, core.chainId, { deleted: true });
    const before = await countGroupRows(core);
    for (const id of [foreign, deleted]) {
      const { status, body } = await add({ name: "G", campaign_ids: [c1, id] });
      expect([status, body.error.code, body.error.name]).toEqual([404, 246, "campaign_id_not_found"]);
    }
    expect(await countGroupRows(core)).toEqual(before);
  });

  it("no session: 6; read access only or another chain: 68", async () => {
    const before = await countGroupRows(core);
    const none = await add({ name: "G" }, "json", {});
    expect([none.status, none.body.error.code]).toEqual([401, 6]);
    const read = await add({ name: "G" }, "json", reader.headers);
    expect([read.status, read.body.error.code, read.body.error.name]).toEqual([403, 68, "permission_denied_or_non_existent"]);
    const other = await add({ chain_id: otherChain, name: "G" });
    expect([other.status, other.body.error.code]).toEqual([403, 68]);
    expect(await countGroupRows(core)).toEqual(before);
  });
});

describe("get-campaign-groups", () => {
  let chain: number;
  let admin: TestAdmin;
  let ids: number[];
  let campaignA: number;
  let campaignB: number;
  beforeAll(async () => {
    chain = await core.createChain("Listed");
    admin = await core.admin({ write: true, read: true }, chain);
    campaignA = await seedCampaign(core.db, chain);
    campaignB = await seedCampaign(core.db, chain);
    ids = [];
    for (const [name, campaignIds] of [["First", [campaignA, campaignB]], ["Second", [campaignB]], ["Third", []]] as const) {
      const res = await core.json("/internal/add-campaign-group", encode("json", "POST", admin.headers, { chain_id: chain, name, campaign_ids: [...campaignIds] }));
      ids.push(res.body.results.campaign_group.id);
    }
  });

  it("lists the chain's groups oldest first, each as add-campaign-group returned it", async () => {
    const { status, body } = await list({ chain_id: chain }, admin.headers);
    expect(status).toBe(200);
    const results = getCampaignGroupsResponseSchema.parse(body).results;
    expect(results.result_type).toBe("get-campaign-groups");
    expect(results.campaign_groups.map((g) => [g.id, g.name, g.campaign_ids])).toEqual([
      [ids[0], "First", [campaignA, campaignB]],
      [ids[1], "Second", [campaignB]],
      [ids[2], "Third", []],
    ]);
    expect(results.campaign_groups[0]).toMatchObject({ last_updated_by: [{ user_id: admin.id }], created_date: NOW });
  });

  it("pages with limit and offset", async () => {
    const { body } = await list({ chain_id: chain, limit: 1, offset: 1 }, admin.headers);
    expect(body.results.campaign_groups.map((g: { id: number }) => g.id)).toEqual([ids[1]]);
  });

  it("a deleted campaign is no longer among a group's campaign_ids", async () => {
    const campaign = await seedCampaign(core.db, chain);
    const res = await core.json("/internal/add-campaign-group", encode("json", "POST", admin.headers, { chain_id: chain, name: "Shrinks", campaign_ids: [campaign, campaignA] }));
    // The other tests list the chain's three groups alone: take this one away again afterwards.
    const groupId: number = res.body.results.campaign_group.id;
    onTestFinished(async () => {
      await core.db.delete(campaignGroupCampaigns).where(eq(campaignGroupCampaigns.campaignGroupId, groupId));
      await core.db.delete(campaignGroups).where(eq(campaignGroups.id, groupId));
    });
    await core.db.update(campaigns).set({ deleted: true }).where(eq(campaigns.id, campaign));
    const { body } = await list({ chain_id: chain }, admin.headers);
    const group = body.results.campaign_groups.find((g: { id: number }) => g.id === groupId);
    expect(group.campaign_ids).toEqual([campaignA]);
  });

  it.each([
    [{ chain_id: "" }, 400, 3, "http_vars_missing"],
    [{ chain_id: "x" }, 400, 76, "chain_id_invalid"],
    [{ limit: 0 }, 400, 419, "parameter_invalid"],
    [{ limit: 501 }, 400, 419, "parameter_invalid"],
    [{ offset: -1 }, 400, 419, "parameter_invalid"],
  ])("%j: %i %i %s", async (params, httpStatus, code, name) => {
    const { status, body } = await list(params);
    expect([status, body.error.code, body.error.name]).toEqual([httpStatus, code, name]);
  });

  it("another chain's groups are refused like a missing chain's (68), and no session is 6", async () => {
    const other = await list({ chain_id: chain });
    const missing = await list({ chain_id: 99_999_999 });
    expect(other).toEqual(missing);
    expect([other.status, other.body.error.code]).toEqual([403, 68]);
    const none = await list({}, {});
    expect([none.status, none.body.error.code]).toEqual([401, 6]);
  });

  it("writes nothing", async () => {
    const before = await countGroupRows(core);
    await list({ chain_id: chain }, admin.headers);
    expect(await countGroupRows(core)).toEqual(before);
  });
});
