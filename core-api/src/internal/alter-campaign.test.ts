import { alterCampaignResponseSchema } from "@service/shared/internal/alter-campaign";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, ENCODINGS, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { createCampaign } from "../campaigns/campaign-repository.ts";
import { campaignRow, changeLogRows, countRows } from "../campaigns/campaign-test-support.ts";
import { campaigns } from "../db/schema.ts";

const CREATED = "2026-01-01T00:00:00Z";
/** The clock; sessions last 24 hours, so every test stays within 2026-03-01. */
let now = new Date("2026-03-01T09:00:00Z");
let core: TestCore;
let writer: TestAdmin;
let reader: TestAdmin;
let otherChain: number;
beforeAll(async () => {
  core = await startCore({ clock: () => now });
  writer = await core.admin({ write: true });
  reader = await core.admin({ read: true });
  otherChain = await core.createChain();
});
afterAll(() => core.close());

/** A stored campaign created by `writer` at CREATED (one creation entry). */
async function seedCampaign(values: Partial<Parameters<typeof createCampaign>[1]> = {}) {
  return createCampaign(
    core.db,
    { chainId: core.chainId, title: "Spring", isActive: false, activeDateFrom: null, activeDateUntil: new Date("2026-06-30T23:59:59Z"), ...values },
    { adminId: writer.id, endpoint: "internal/add-campaign" },
    new Date(CREATED),
  );
}

const alter = (params: Record<string, unknown>, encoding: Encoding = "json", headers = writer.headers) =>
  core.json("/internal/alter-campaign", encode(encoding, "PUT", headers, params as never));

describe("alter-campaign: changing", () => {
  for (const encoding of ENCODINGS) {
    it(`changes the given fields and records only those (${encoding})`, async () => {
      now = new Date("2026-03-01T09:00:00.400Z");
      const campaign = await seedCampaign();
      const { status, body } = await alter(
        { campaign_id: campaign.id, title: "Summer", is_active: encoding === "json" ? true : "true", active_date_from: "2026-04-01T10:00:00+02:00" },
        encoding,
      );
      expect(status).toBe(200);
      const results = alterCampaignResponseSchema.parse(body).results;
      expect(results).toEqual({
        campaign: {
          id: campaign.id,
          chain_id: core.chainId,
          title: "Summer",
          is_active: true,
          active_date_from: "2026-04-01T08:00:00Z",
          active_date_until: "2026-06-30T23:59:59Z",
          created_date: CREATED,
          last_modified_date: "2026-03-01T09:00:00Z",
        },
        result_type: "alter-campaign",
      });
      expect(await campaignRow(core, campaign.id)).toMatchObject({
        title: "Summer",
        isActive: true,
        activeDateFrom: new Date("2026-04-01T08:00:00Z"),
        activeDateUntil: new Date("2026-06-30T23:59:59Z"),
        lastModifiedDate: new Date("2026-03-01T09:00:00Z"),
        lastUpdatedBy: writer.id,
      });
      const log = await changeLogRows(core, campaign.id);
      expect(log).toHaveLength(2);
      expect(log[1]).toMatchObject({
        chainId: core.chainId,
        modelClass: "Campaign",
        modelId: campaign.id,
        changedBy: writer.id,
        changeEndpoint: "internal/alter-campaign",
        createdDate: new Date("2026-03-01T09:00:00Z"),
      });
      // active_date_until did not change, so it is absent.
      expect(log[1]!.diff).toEqual({
        title: { from: "Spring", to: "Summer" },
        is_active: { from: false, to: true },
        active_date_from: { from: null, to: "2026-04-01T08:00:00Z" },
        last_updated_date: { from: CREATED, to: "2026-03-01T09:00:00Z" },
      });
    });
  }

  it("an empty date clears it (form) and JSON null clears it too", async () => {
    now = new Date("2026-03-01T10:00:00Z");
    const campaign = await seedCampaign({ activeDateFrom: new Date("2026-02-01T00:00:00Z") });
    expect((await alter({ campaign_id: campaign.id, active_date_until: "" }, "form")).status).toBe(200);
    now = new Date("2026-03-01T10:05:00Z");
    expect((await alter({ campaign_id: campaign.id, active_date_from: null })).status).toBe(200);
    expect(await campaignRow(core, campaign.id)).toMatchObject({ activeDateFrom: null, activeDateUntil: null });
    const log = await changeLogRows(core, campaign.id);
    expect(log.map((e) => e.diff)).toEqual([
      expect.anything(),
      { active_date_until: { from: "2026-06-30T23:59:59Z", to: null }, last_updated_date: { from: CREATED, to: "2026-03-01T10:00:00Z" } },
      // Each entry's `from` is what the previous change left.
      { active_date_from: { from: "2026-02-01T00:00:00Z", to: null }, last_updated_date: { from: "2026-03-01T10:00:00Z", to: "2026-03-01T10:05:00Z" } },
    ]);
  });

  it("a call that changes nothing records nothing and keeps last_modified_date", async () => {
    now = new Date("2026-03-01T11:00:00Z");
    const campaign = await seedCampaign();
    for (const params of [
      { campaign_id: campaign.id },
      { campaign_id: campaign.id, title: " Spring ", is_active: "no", active_date_until: "2026-07-01T01:59:59+02:00", active_date_from: "" },
    ]) {
      const before = await countRows(core);
      const { status, body } = await alter(params, "form");
      expect(status).toBe(200);
      expect(body.results.campaign).toMatchObject({ title: "Spring", last_modified_date: CREATED });
      expect(await countRows(core)).toEqual(before);
    }
    expect(await changeLogRows(core, campaign.id)).toHaveLength(1);
    expect((await campaignRow(core, campaign.id))!.lastModifiedDate).toEqual(new Date(CREATED));
  });

  it("concurrent changes each record the value they replaced", async () => {
    now = new Date("2026-03-01T11:30:00Z");
    const campaign = await seedCampaign();
    const results = await Promise.all(["A", "B", "C"].map((title) => alter({ campaign_id: campaign.id, title })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const titles = (await changeLogRows(core, campaign.id)).slice(1).map((e) => e.diff.title!);
    expect(titles).toHaveLength(3);
    // A chain Spring -> x -> y -> z: every `from` is the previous entry's `to`.
    expect(titles[0]!.from).toBe("Spring");
    expect(titles[1]!.from).toBe(titles[0]!.to);
    expect(titles[2]!.from).toBe(titles[1]!.to);
    expect((await campaignRow(core, campaign.id))!.title).toBe(titles[2]!.to);
  });

  it("an admin with write access but no read flag may alter", async () => {
    now = new Date("2026-03-01T12:00:00Z");
    const writeOnly = await core.admin({ write: true, read: false });
    const campaign = await seedCampaign();
    const { status } = await alter({ campaign_id: campaign.id, title: "By write-only" }, "json", writeOnly.headers);
    expect(status).toBe(200);
    expect((await changeLogRows(core, campaign.id))[1]!.changedBy).toBe(writeOnly.id);
  });
});

describe("alter-campaign: errors (nothing is written)", () => {
  /** [what, params (campaign_id filled in unless given), code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding?]> = [
    ["campaign_id missing", { campaign_id: undefined, title: "X" }, 245, "campaign_id_not_present", 400],
    ["campaign_id empty", { campaign_id: "", title: "X" }, 245, "campaign_id_not_present", 400, "form"],
    ["campaign_id not an integer", { campaign_id: "abc" }, 244, "campaign_id_invalid", 400, "multipart"],
    ["campaign_id a decimal", { campaign_id: 1.5 }, 244, "campaign_id_invalid", 400],
    ["campaign_id unknown", { campaign_id: 999_999, title: "X" }, 246, "campaign_id_not_found", 404],
    ["title over 255", { title: "t".repeat(256) }, 482, "string_parameter_too_long", 400],
    ["title emptied", { title: "" }, 419, "parameter_invalid", 400, "form"],
    ["is_active not a boolean", { is_active: "perhaps" }, 316, "parameter_supplied_not_boolean", 400],
    ["active_date_from not a datetime", { active_date_from: "2026-04-01T10:00" }, 419, "parameter_invalid", 400],
    ["active_date_from after the stored until", { active_date_from: "2026-07-01 00:00:00", title: "X" }, 419, "parameter_invalid", 400],
    ["active_date_until before the given from", { active_date_from: "2026-05-01 00:00:00", active_date_until: "2026-04-30 23:59:59" }, 419, "parameter_invalid", 400, "form"],
  ];
  for (const [what, params, code, name, httpStatus, encoding = "json"] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const campaign = await seedCampaign();
      const merged: Record<string, unknown> = { campaign_id: campaign.id, ...params };
      for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
      const before = await countRows(core);
      const { status, body } = await alter(merged, encoding);
      expect(body.error).toMatchObject({ code, name });
      expect(body.result).toEqual({ code, status: "error" });
      expect(status).toBe(httpStatus);
      expect(await countRows(core)).toEqual(before);
      expect(await campaignRow(core, campaign.id)).toMatchObject({ title: "Spring", lastModifiedDate: new Date(CREATED) });
    });
  }

  it("no session: 6 no_valid_session (401)", async () => {
    const campaign = await seedCampaign();
    const before = await countRows(core);
    const { status, body } = await alter({ campaign_id: campaign.id, title: "X" }, "json", {});
    expect(status).toBe(401);
    expect(body.error).toMatchObject({ code: 6, name: "no_valid_session" });
    expect(await countRows(core)).toEqual(before);
  });

  it("read access only: 68 permission_denied_or_non_existent (403)", async () => {
    const campaign = await seedCampaign();
    const before = await countRows(core);
    const { status, body } = await alter({ campaign_id: campaign.id, title: "X" }, "json", reader.headers);
    expect(status).toBe(403);
    expect(body.error).toMatchObject({ code: 68, name: "permission_denied_or_non_existent" });
    expect(await countRows(core)).toEqual(before);
  });

  it("another chain's campaign answers exactly like a missing one (246), as does a deleted one", async () => {
    const foreign = await createCampaign(
      core.db,
      { chainId: otherChain, title: "Foreign", isActive: true, activeDateFrom: null, activeDateUntil: null },
      { adminId: writer.id, endpoint: "internal/add-campaign" },
      new Date(CREATED),
    );
    const deleted = await seedCampaign();
    await core.db.update(campaigns).set({ deleted: true }).where(eq(campaigns.id, deleted.id));
    const before = await countRows(core);
    const missing = await alter({ campaign_id: 999_998, title: "X" });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: 246, name: "campaign_id_not_found" });
    for (const id of [foreign.id, deleted.id]) {
      const res = await alter({ campaign_id: id, title: "X" });
      expect(res).toEqual(missing);
    }
    expect(await countRows(core)).toEqual(before);
    expect(await campaignRow(core, foreign.id)).toMatchObject({ title: "Foreign" });
  });

  it("any method but PUT: 13 http_request_method_non_PUT_not_allowed (405)", async () => {
    const campaign = await seedCampaign();
    const before = await countRows(core);
    for (const method of ["GET", "POST", "DELETE"]) {
      const { status, body } = await core.json(`/internal/alter-campaign?campaign_id=${campaign.id}&title=x`, { method, headers: writer.headers });
      expect(status).toBe(405);
      expect(body.error).toMatchObject({ code: 13, name: "http_request_method_non_PUT_not_allowed" });
    }
    expect(await countRows(core)).toEqual(before);
  });
});
