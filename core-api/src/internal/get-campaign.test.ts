import { getCampaignResponseSchema } from "@service/shared/internal/get-campaign";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createCampaign, type NewCampaign } from "../campaigns/campaign-repository.ts";
import { countRows } from "../campaigns/campaign-test-support.ts";

let core: TestCore;
let reader: TestAdmin;
let otherChain: number;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date("2026-05-01T12:00:00Z") });
  reader = await core.admin({ read: true });
  otherChain = await core.createChain();
});
afterAll(() => core.close());

const seed = (values: Partial<NewCampaign> = {}) =>
  createCampaign(
    core.db,
    { chainId: core.chainId, title: "Autumn", isActive: true, activeDateFrom: new Date("2026-09-01T00:00:00Z"), activeDateUntil: null, ...values },
    { adminId: reader.id, endpoint: "internal/add-campaign" },
    new Date("2026-04-01T08:30:00Z"),
  );

const get = (query: string, headers: Record<string, string> = reader.headers) => core.json(`/internal/get-campaign${query}`, { headers });

describe("get-campaign", () => {
  it("returns the campaign to an admin with read access, datetimes per version", async () => {
    const campaign = await seed();
    const { status, body } = await get(`?campaign_id=${campaign.id}`);
    expect(status).toBe(200);
    expect(getCampaignResponseSchema.parse(body).results).toEqual({
      campaign: {
        id: campaign.id,
        chain_id: core.chainId,
        title: "Autumn",
        is_active: true,
        active_date_from: "2026-09-01T00:00:00Z",
        active_date_until: null,
        created_date: "2026-04-01T08:30:00Z",
        last_modified_date: "2026-04-01T08:30:00Z",
      },
      result_type: "get-campaign",
    });
    const old = await get(`.json?campaign_id=${campaign.id}`, { ...reader.headers, "X-Service-API-version": "1.6.1" });
    expect(old.body.results.campaign).toMatchObject({ active_date_from: "2026-09-01 00:00:00", created_date: "2026-04-01 08:30:00" });
  });

  it("writes nothing", async () => {
    const campaign = await seed();
    const before = await countRows(core);
    await get(`?campaign_id=${campaign.id}`);
    expect(await countRows(core)).toEqual(before);
  });

  it.each([
    ["", 245, "campaign_id_not_present", 400],
    ["?campaign_id=", 245, "campaign_id_not_present", 400],
    ["?campaign_id=x1", 244, "campaign_id_invalid", 400],
    ["?campaign_id=999999", 246, "campaign_id_not_found", 404],
  ])("%s: %i %s", async (query, code, name, status) => {
    const res = await get(query);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, name });
  });

  it("another chain's campaign, or a campaign the admin cannot read, looks exactly like a missing one", async () => {
    const foreign = await seed({ chainId: otherChain });
    const own = await seed();
    const analyst = await core.admin({ analytics: true });
    const missing = await get("?campaign_id=999998");
    expect(missing.body.error.code).toBe(246);
    expect(await get(`?campaign_id=${foreign.id}`)).toEqual(missing);
    expect(await get(`?campaign_id=${own.id}`, analyst.headers)).toEqual(missing);
  });

  it("no session: 6; any method but GET: 13", async () => {
    const campaign = await seed();
    const anonymous = await get(`?campaign_id=${campaign.id}`, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({ code: 6, name: "no_valid_session" });
    const posted = await core.json(`/internal/get-campaign?campaign_id=${campaign.id}`, { method: "POST", headers: reader.headers });
    expect(posted.status).toBe(405);
    expect(posted.body.error).toMatchObject({ code: 13, name: "http_request_method_non_GET_not_allowed" });
  });
});
