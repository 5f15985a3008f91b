/**
 * delete-campaign over HTTP (spec, "Internal call: delete-campaign"): the campaign becomes
 * inactive and deleted with one change log entry; who may delete (write and the campaign
 * permission; campaign_enable for an active campaign where the chain restricts it); every error
 * of its list (6, 68, 244, 245, 246) with nothing written.
 */
import { deleteCampaignResponseSchema } from "@service/shared/internal/delete-campaign";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { bearer } from "../auth/two-chains.test-support.ts";
import { createCampaign, type NewCampaign } from "../campaigns/campaign-repository.ts";
import { campaignRow, changeLogRows, countRows } from "../campaigns/campaign-test-support.ts";
import { seedClient, seedToken } from "../clients/client-test-support.ts";
import { campaigns, chains } from "../db/schema.ts";

const CREATED = "2026-01-01T00:00:00Z";
/** The clock; sessions last 24 hours, so every test stays within 2026-03-01. */
let now = new Date("2026-03-01T09:00:00Z");
let core: TestCore;
/** write and campaign: what the call needs in a chain without restrict_campaign_enable */
let deleter: TestAdmin;
let reader: TestAdmin;
let otherChain: number;
beforeAll(async () => {
  core = await startCore({ clock: () => now });
  deleter = await core.admin({ write: true, campaign: true });
  reader = await core.admin({ read: true });
  otherChain = await core.createChain();
});
afterAll(() => core.close());

/** A stored campaign of `chainId` (default the core's chain) created at CREATED. */
const seed = (values: Partial<NewCampaign> = {}) =>
  createCampaign(
    core.db,
    { chainId: core.chainId, title: "Spring", isActive: true, activeDateFrom: null, activeDateUntil: null, ...values },
    { adminId: null, endpoint: "internal/add-campaign" },
    new Date(CREATED),
  );

const del = (params: Record<string, unknown>, encoding: Encoding = "json", headers = deleter.headers) =>
  core.json("/internal/delete-campaign", encode(encoding, "DELETE", headers, params as never));

/** The campaign row, its change log and the row counts, to compare before and after a refusal. */
async function state(id: number) {
  return { row: await campaignRow(core, id), log: await changeLogRows(core, id), counts: await countRows(core) };
}

describe("delete-campaign: deleting", () => {
  for (const encoding of ["json", "form"] as const) {
    it(`makes an active campaign inactive and deleted, recorded in its change log (${encoding})`, async () => {
      now = new Date("2026-03-01T09:00:00.700Z");
      const campaign = await seed();
      const { status, body } = await del({ campaign_id: encoding === "json" ? campaign.id : String(campaign.id) }, encoding);
      expect(status).toBe(200);
      expect(deleteCampaignResponseSchema.parse(body).results).toEqual({
        campaign_id: campaign.id,
        is_active: false,
        is_deleted: true,
        result_type: "delete-campaign",
      });
      expect(await campaignRow(core, campaign.id)).toMatchObject({
        isActive: false,
        deleted: true,
        title: "Spring",
        lastUpdatedBy: deleter.id,
        lastModifiedDate: new Date("2026-03-01T09:00:00Z"),
      });
      const log = await changeLogRows(core, campaign.id);
      expect(log).toHaveLength(2);
      expect(log[1]).toMatchObject({
        chainId: core.chainId,
        modelClass: "Campaign",
        changedBy: deleter.id,
        changeEndpoint: "internal/delete-campaign",
        createdDate: new Date("2026-03-01T09:00:00Z"),
      });
      expect(log[1]!.diff).toEqual({
        is_active: { from: true, to: false },
        deleted: { from: false, to: true },
        last_updated_date: { from: CREATED, to: "2026-03-01T09:00:00Z" },
      });
    });
  }

  it("an inactive campaign's entry lists deleted only; campaign_id in the query string and multipart are read too", async () => {
    now = new Date("2026-03-01T09:30:00Z");
    const inactive = await seed({ isActive: false });
    expect((await core.json(`/internal/delete-campaign?campaign_id=${inactive.id}`, { method: "DELETE", headers: deleter.headers })).status).toBe(200);
    expect((await changeLogRows(core, inactive.id))[1]!.diff).toEqual({
      deleted: { from: false, to: true },
      last_updated_date: { from: CREATED, to: "2026-03-01T09:30:00Z" },
    });
    const other = await seed();
    expect((await del({ campaign_id: other.id }, "multipart")).status).toBe(200);
    expect(await campaignRow(core, other.id)).toMatchObject({ deleted: true, isActive: false });
  });

  it("a deleted campaign is gone: get-campaign and a second deletion answer 246, writing nothing", async () => {
    const campaign = await seed();
    expect((await del({ campaign_id: campaign.id })).status).toBe(200);
    const before = await state(campaign.id);
    const again = await del({ campaign_id: campaign.id });
    expect([again.status, again.body.error.code]).toEqual([404, 246]);
    const read = await core.json(`/internal/get-campaign?campaign_id=${campaign.id}`, { headers: deleter.headers });
    expect([read.status, read.body.error.code]).toEqual([404, 246]);
    expect(await state(campaign.id)).toEqual(before);
  });

  it("of concurrent deletions exactly one succeeds and one entry is recorded", async () => {
    const campaign = await seed();
    const results = await Promise.all(Array.from({ length: 5 }, () => del({ campaign_id: campaign.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    for (const r of results.filter((r) => r.status === 404)) expect(r.body.error).toMatchObject({ code: 246, name: "campaign_id_not_found" });
    expect(await changeLogRows(core, campaign.id)).toHaveLength(2);
  });

  it("a chain-scope token equals admin access: it deletes, and the entry names no admin", async () => {
    const client = await seedClient(core.db, core.chainId, now, { name: "Deleter client" });
    const token = await seedToken(core.db, core.chainId, client.id, now);
    const campaign = await seed();
    const { status } = await del({ campaign_id: campaign.id }, "form", bearer(token.row.id, token.secret));
    expect(status).toBe(200);
    const log = await changeLogRows(core, campaign.id);
    expect(log[1]).toMatchObject({ changedBy: null, changeEndpoint: "internal/delete-campaign" });
  });
});

describe("delete-campaign: restrict_campaign_enable", () => {
  let restricted: number;
  let withoutEnable: TestAdmin;
  let withEnable: TestAdmin;
  let superUser: TestAdmin;
  const seedIn = (isActive: boolean) => seed({ chainId: restricted, isActive });
  beforeAll(async () => {
    restricted = await core.createChain("Restricted");
    await core.db.update(chains).set({ restrictCampaignEnable: true }).where(eq(chains.id, restricted));
    withoutEnable = await core.admin({ write: true, campaign: true }, restricted);
    withEnable = await core.admin({ write: true, campaign: true, campaign_enable: true }, restricted);
    superUser = await core.admin({ super_user: true }, restricted);
  });

  it("an active campaign needs campaign_enable: 68 without it, and nothing is written", async () => {
    const campaign = await seedIn(true);
    const before = await state(campaign.id);
    const { status, body } = await del({ campaign_id: campaign.id }, "json", withoutEnable.headers);
    expect(status).toBe(403);
    expect(body.error).toMatchObject({ code: 68, name: "permission_denied_or_non_existent" });
    expect(body.error.description).toContain("campaign_enable");
    expect(await state(campaign.id)).toEqual(before);
  });

  it("an inactive campaign does not", async () => {
    const campaign = await seedIn(false);
    expect((await del({ campaign_id: campaign.id }, "json", withoutEnable.headers)).status).toBe(200);
    expect(await campaignRow(core, campaign.id)).toMatchObject({ deleted: true });
  });

  it("campaign_enable, or a super user, deletes an active campaign", async () => {
    for (const admin of [withEnable, superUser]) {
      const campaign = await seedIn(true);
      expect((await del({ campaign_id: campaign.id }, "form", admin.headers)).status).toBe(200);
      expect(await campaignRow(core, campaign.id)).toMatchObject({ deleted: true, isActive: false, lastUpdatedBy: admin.id });
    }
  });

  it("without the setting, write and campaign delete an active campaign (campaign_enable not needed)", async () => {
    const campaign = await seed({ chainId: otherChain });
    const admin = await core.admin({ write: true, campaign: true }, otherChain);
    expect((await del({ campaign_id: campaign.id }, "json", admin.headers)).status).toBe(200);
  });
});

describe("delete-campaign: errors (nothing is written)", () => {
  /** [what, params (campaign_id of a fresh campaign filled in unless given), code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding]> = [
    ["campaign_id missing", { campaign_id: undefined }, 245, "campaign_id_not_present", 400, "json"],
    ["campaign_id empty", { campaign_id: "" }, 245, "campaign_id_not_present", 400, "form"],
    ["campaign_id null", { campaign_id: null }, 245, "campaign_id_not_present", 400, "json"],
    ["campaign_id not an integer", { campaign_id: "abc" }, 244, "campaign_id_invalid", 400, "form"],
    ["campaign_id a decimal", { campaign_id: 1.5 }, 244, "campaign_id_invalid", 400, "json"],
    ["campaign_id an array", { campaign_id: [1] }, 244, "campaign_id_invalid", 400, "json"],
    ["campaign_id unknown", { campaign_id: 999_999 }, 246, "campaign_id_not_found", 404, "json"],
  ];
  it("has its cases", () => expect(CASES).toHaveLength(7));
  for (const [what, params, code, name, httpStatus, encoding] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const campaign = await seed();
      const merged: Record<string, unknown> = { campaign_id: campaign.id, ...params };
      if (merged.campaign_id === undefined) delete merged.campaign_id;
      const before = await state(campaign.id);
      const { status, body } = await del(merged, encoding);
      expect(body.error).toMatchObject({ code, name });
      expect(body.result).toEqual({ code, status: "error" });
      expect(status).toBe(httpStatus);
      expect(await state(campaign.id)).toEqual(before);
    });
  }

  it("no session: 6 no_valid_session (401)", async () => {
    const campaign = await seed();
    const before = await state(campaign.id);
    const { status, body } = await del({ campaign_id: campaign.id }, "json", {});
    expect([status, body.error.code, body.error.name]).toEqual([401, 6, "no_valid_session"]);
    expect(await state(campaign.id)).toEqual(before);
  });

  it("68 permission_denied_or_non_existent (403) without write or without the campaign permission", async () => {
    const writeOnly = await core.admin({ write: true, read: true });
    const campaignOnly = await core.admin({ campaign: true, read: true });
    const writeNoRead = await core.admin({ write: true });
    const campaign = await seed();
    const before = await state(campaign.id);
    for (const admin of [reader, writeOnly, campaignOnly, writeNoRead]) {
      const { status, body } = await del({ campaign_id: campaign.id }, "json", admin.headers);
      expect([status, body.error.code, body.error.name], admin.username).toEqual([403, 68, "permission_denied_or_non_existent"]);
    }
    expect(await state(campaign.id)).toEqual(before);
  });

  it("another chain's campaign and a deleted one answer exactly like a missing one (246)", async () => {
    const foreign = await seed({ chainId: otherChain, title: "Foreign" });
    const deleted = await seed();
    await core.db.update(campaigns).set({ deleted: true }).where(eq(campaigns.id, deleted.id));
    const before = [await state(foreign.id), await state(deleted.id)];
    const missing = await del({ campaign_id: 999_998 });
    expect([missing.status, missing.body.error.code]).toEqual([404, 246]);
    for (const id of [foreign.id, deleted.id]) expect(await del({ campaign_id: id })).toEqual(missing);
    expect([await state(foreign.id), await state(deleted.id)]).toEqual(before);
  });

  it("any method but DELETE: 13 http_request_method_non_DELETE_not_allowed (405)", async () => {
    const campaign = await seed();
    const before = await state(campaign.id);
    for (const method of ["GET", "POST", "PUT"]) {
      const { status, body } = await core.json(`/internal/delete-campaign?campaign_id=${campaign.id}`, { method, headers: deleter.headers });
      expect([status, body.error.code, body.error.name], method).toEqual([405, 13, "http_request_method_non_DELETE_not_allowed"]);
    }
    expect(await state(campaign.id)).toEqual(before);
  });
});
