/**
 * delete-campaign deletes the campaign's webhooks in the transaction that deletes the campaign
 * (spec: "associated webhooks deleted"). The hook (campaigns/campaign-webhooks.ts) is replaced
 * here to pin the contract: it must be called once with the campaign, inside the transaction, and
 * when it fails the campaign must stay as it was. resources/webhook.test.ts checks the real
 * deletion of a campaign's webhooks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createCampaign } from "../campaigns/campaign-repository.ts";
import { campaignRow, changeLogRows } from "../campaigns/campaign-test-support.ts";

// A plain stand-in rather than vi.fn: with vitest 4, a spy that rejects after mockClear or
// mockReset was reported as a failure of the running test although the app handled the error.
const hook = vi.hoisted(() => ({
  calls: [] as Array<[tx: unknown, campaign: { id: number; chainId: number }]>,
  fails: false,
}));
vi.mock("../campaigns/campaign-webhooks.ts", () => ({
  deleteCampaignWebhooks: async (tx: unknown, campaign: { id: number; chainId: number }) => {
    hook.calls.push([tx, campaign]);
    if (hook.fails) throw new Error("webhook store down");
    return 2;
  },
}));

/** the unexpected failure below is logged here rather than on the console */
const logger = { error: vi.fn(), warn: vi.fn(), info: vi.fn() };
let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore({ logger });
  admin = await core.admin({ write: true, campaign: true });
});
afterAll(() => core.close());
beforeEach(() => {
  hook.calls.length = 0;
  hook.fails = false;
});

const seed = () =>
  createCampaign(
    core.db,
    { chainId: core.chainId, title: "Hooked", isActive: true, activeDateFrom: null, activeDateUntil: null },
    { adminId: admin.id, endpoint: "internal/add-campaign" },
    new Date(),
  );

const del = (id: number, headers = admin.headers) =>
  core.json("/internal/delete-campaign", { method: "DELETE", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ campaign_id: id }) });

describe("delete-campaign and the campaign's webhooks", () => {
  it("calls the webhook deletion once, with the campaign, inside the deletion's transaction", async () => {
    const campaign = await seed();
    expect((await del(campaign.id)).status).toBe(200);
    expect(hook.calls).toHaveLength(1);
    const [tx, ref] = hook.calls[0]!;
    expect(ref).toMatchObject({ id: campaign.id, chainId: core.chainId });
    // a transaction handle, not the pool's database object
    expect(tx).not.toBe(core.db);
  });

  it("a failure deleting the webhooks leaves the campaign and its change log untouched (500)", async () => {
    hook.fails = true;
    const campaign = await seed();
    const before = { row: await campaignRow(core, campaign.id), log: await changeLogRows(core, campaign.id) };
    const { status, body } = await del(campaign.id);
    expect([status, body.error.name]).toEqual([500, "internal_error"]);
    expect(hook.calls).toHaveLength(1);
    expect({ row: await campaignRow(core, campaign.id), log: await changeLogRows(core, campaign.id) }).toEqual(before);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("a refused deletion does not touch the webhooks", async () => {
    const campaign = await seed();
    const reader = await core.admin({ read: true });
    expect((await del(campaign.id, reader.headers)).status).toBe(403);
    expect(hook.calls).toEqual([]);
  });
});
