import { changeLogResponseSchema } from "@service/shared/resources/change-log";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode } from "../../../test/helpers/internal-calls.ts";
import { createCampaign } from "../campaigns/campaign-repository.ts";
import { countRows } from "../campaigns/campaign-test-support.ts";
import { modelChangeLogs } from "../db/schema.ts";
import { grantAccess } from "../db/seed.ts";
import { errorOf } from "./resources-test-support.ts";

/** The clock; sessions last 24 hours, so every request stays within 2026-05-10. */
let now = new Date("2026-05-10T08:00:00Z");
let core: TestCore;
let writer: TestAdmin;
let reader: TestAdmin;
let otherChain: number;
let campaignId: number;
/** entry ids oldest first: creation at 08:00, changes at 09:00, 10:00, 11:00 */
let entryIds: number[];

beforeAll(async () => {
  core = await startCore({ clock: () => now });
  writer = await core.admin({ write: true, read: true });
  reader = await core.admin({ read: true });
  otherChain = await core.createChain();

  const added = await core.json("/internal/add-campaign", encode("json", "POST", writer.headers, { chain_id: core.chainId, title: "Spring", active_date_until: "2026-06-30 23:59:59" }));
  campaignId = added.body.results.campaign.id;
  const changes: Array<[string, Record<string, unknown>]> = [
    ["2026-05-10T09:00:00Z", { title: "Summer" }],
    ["2026-05-10T10:00:00Z", { is_active: true }],
    ["2026-05-10T11:00:00Z", { active_date_until: "" }],
  ];
  for (const [at, params] of changes) {
    now = new Date(at);
    const res = await core.json("/internal/alter-campaign", encode("form", "PUT", writer.headers, { campaign_id: campaignId, ...params } as never));
    expect(res.status).toBe(200);
  }
  now = new Date("2026-05-10T12:00:00Z");
  const rows = await core.db.select({ id: modelChangeLogs.id }).from(modelChangeLogs).where(eq(modelChangeLogs.modelId, campaignId)).orderBy(modelChangeLogs.id);
  entryIds = rows.map((r) => r.id);
});
afterAll(() => core.close());

const changeLog = (query = "", headers: Record<string, string> = reader.headers, id: number | string = campaignId) =>
  core.json(`/resources/campaign/${id}/change_log${query}`, { headers });

const idsOf = (body: any): number[] => body.results.resources.map((r: { id: number }) => r.id);

describe("change log: entries", () => {
  it("lists the campaign's entries newest first, with the diffs as recorded (1.6.8 by default)", async () => {
    const { status, body } = await changeLog();
    expect(status).toBe(200);
    const results = changeLogResponseSchema.parse(body).results;
    expect(Object.keys(results)).toEqual(["result_type", "offset", "limit", "total_count", "resources"]);
    expect(results).toMatchObject({ result_type: "model-change-logs", offset: 0, limit: 25, total_count: 4 });
    expect(idsOf(body)).toEqual([...entryIds].reverse());
    const common = { model_class: "Campaign", model_id: campaignId, changed_by: writer.id, change_endpoint: "internal/alter-campaign" };
    expect(results.resources).toEqual([
      {
        id: entryIds[3],
        ...common,
        diff: { active_date_until: { from: "2026-06-30T23:59:59Z", to: null }, last_updated_date: { from: "2026-05-10T10:00:00Z", to: "2026-05-10T11:00:00Z" } },
        created_date: "2026-05-10T11:00:00Z",
        last_modified_date: "2026-05-10T11:00:00Z",
      },
      {
        id: entryIds[2],
        ...common,
        diff: { is_active: { from: false, to: true }, last_updated_date: { from: "2026-05-10T09:00:00Z", to: "2026-05-10T10:00:00Z" } },
        created_date: "2026-05-10T10:00:00Z",
        last_modified_date: "2026-05-10T10:00:00Z",
      },
      {
        id: entryIds[1],
        ...common,
        diff: { title: { from: "Spring", to: "Summer" }, last_updated_date: { from: "2026-05-10T08:00:00Z", to: "2026-05-10T09:00:00Z" } },
        created_date: "2026-05-10T09:00:00Z",
        last_modified_date: "2026-05-10T09:00:00Z",
      },
      {
        id: entryIds[0],
        ...common,
        change_endpoint: "internal/add-campaign",
        diff: {
          title: { from: null, to: "Spring" },
          is_active: { from: null, to: false },
          active_date_until: { from: null, to: "2026-06-30T23:59:59Z" },
          last_updated_date: { from: null, to: "2026-05-10T08:00:00Z" },
        },
        created_date: "2026-05-10T08:00:00Z",
        last_modified_date: "2026-05-10T08:00:00Z",
      },
    ]);
  });

  it("before 1.6.8: changed_by is {id, firstname, lastname} and datetimes YYYY-MM-DD HH:MM:SS; diffs are identical", async () => {
    const current = await changeLog("", { ...reader.headers, "X-Service-API-version": "1.6.8" });
    for (const version of ["1.5.8", "1.6.1"]) {
      const old = await changeLog("", { ...reader.headers, "X-Service-API-version": version });
      expect(old.status).toBe(200);
      const entries = changeLogResponseSchema.parse(old.body).results.resources;
      expect(entries[0]).toMatchObject({
        changed_by: { id: writer.id, firstname: "Test", lastname: expect.stringMatching(/^Admin \d+$/) },
        created_date: "2026-05-10 11:00:00",
        last_modified_date: "2026-05-10 11:00:00",
      });
      expect(entries.map((e) => e.diff)).toEqual(current.body.results.resources.map((e: { diff: unknown }) => e.diff));
    }
    expect(current.body.results.resources[0].changed_by).toBe(writer.id);
  });

  it("writes nothing", async () => {
    const before = await countRows(core);
    await changeLog();
    expect(await countRows(core)).toEqual(before);
  });
});

describe("change log: paging and sorting", () => {
  it("limit and offset page through the entries; total_count counts them all", async () => {
    const { body } = await changeLog("?limit=2&offset=1");
    expect(body.results).toMatchObject({ offset: 1, limit: 2, total_count: 4 });
    expect(idsOf(body)).toEqual([entryIds[2], entryIds[1]]);
    const beyond = await changeLog("?offset=10&limit=500");
    expect(beyond.body.results).toMatchObject({ offset: 10, limit: 500, total_count: 4, resources: [] });
  });

  it("sort_by created_date in both orders; sort_order alone applies to created_date", async () => {
    expect(idsOf((await changeLog("?sort_by=created_date&sort_order=asc")).body)).toEqual(entryIds);
    expect(idsOf((await changeLog("?sort_by=created_date&sort_order=desc")).body)).toEqual([...entryIds].reverse());
    expect(idsOf((await changeLog("?sort_by=created_date")).body)).toEqual([...entryIds].reverse());
    expect(idsOf((await changeLog("?sort_order=asc")).body)).toEqual(entryIds);
  });

  it("sort_by last_modified_date in both orders follows last_modified_date, not created_date", async () => {
    // An operator touched the entries: last_modified_date now runs 1st, 3rd, 0th, 2nd.
    const order = [entryIds[1]!, entryIds[3]!, entryIds[0]!, entryIds[2]!];
    for (const [i, id] of order.entries()) {
      await core.db.update(modelChangeLogs).set({ lastModifiedDate: new Date(Date.UTC(2026, 4, 11, 0, i)) }).where(eq(modelChangeLogs.id, id));
    }
    try {
      expect(idsOf((await changeLog("?sort_by=last_modified_date&sort_order=asc")).body)).toEqual(order);
      expect(idsOf((await changeLog("?sort_by=last_modified_date&sort_order=desc")).body)).toEqual([...order].reverse());
      expect(idsOf((await changeLog("?sort_by=last_modified_date")).body)).toEqual([...order].reverse());
      const { body } = await changeLog("?sort_by=last_modified_date&sort_order=asc&limit=1");
      expect(body.results.resources[0]).toMatchObject({ id: order[0], created_date: "2026-05-10T09:00:00Z", last_modified_date: "2026-05-11T00:00:00Z" });
      // The default order is still by created_date.
      expect(idsOf((await changeLog()).body)).toEqual([...entryIds].reverse());
    } finally {
      await core.db.update(modelChangeLogs).set({ lastModifiedDate: sql`${modelChangeLogs.createdDate}` }).where(eq(modelChangeLogs.modelId, campaignId));
    }
  });

  it("entries of the same second keep the order they were recorded in", async () => {
    now = new Date("2026-05-10T13:00:00Z");
    const added = await core.json("/internal/add-campaign", encode("json", "POST", writer.headers, { chain_id: core.chainId, title: "Burst" }));
    const id = added.body.results.campaign.id as number;
    await core.json("/internal/alter-campaign", encode("json", "PUT", writer.headers, { campaign_id: id, title: "Burst 2" }));
    const { body } = await changeLog("", reader.headers, id);
    expect(body.results.total_count).toBe(2);
    expect(body.results.resources.map((r: { change_endpoint: string }) => r.change_endpoint)).toEqual(["internal/alter-campaign", "internal/add-campaign"]);
    const asc = await changeLog("?sort_order=asc", reader.headers, id);
    expect(asc.body.results.resources.map((r: { change_endpoint: string }) => r.change_endpoint)).toEqual(["internal/add-campaign", "internal/alter-campaign"]);
  });
});

describe("change log: errors", () => {
  it.each([
    "?limit=0",
    "?limit=501",
    "?limit=ten",
    "?offset=-1",
    "?sort_by=title",
    "?sort_by=id",
    "?sort_order=up",
    "?model_class=Campaign",
    "?match_all=true",
    "?search[*]=Spring",
    "?foo=1",
  ])("%s: 419 parameter_invalid", async (query) => {
    const res = await changeLog(query);
    expect(errorOf(res)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
  });

  it("X-Service-Chain-ID missing or malformed: 419", async () => {
    const { "X-Service-Chain-ID": _, ...noChain } = reader.headers;
    expect(errorOf(await changeLog("", noChain))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(errorOf(await changeLog("", { ...reader.headers, "X-Service-Chain-ID": "one" }))).toMatchObject({ code: 419 });
  });

  it("no session: 6 no_valid_session (401)", async () => {
    const { "X-Service-Session-User-ID": _u, "X-Service-Session-Key": _k, ...anonymous } = reader.headers;
    expect(errorOf(await changeLog("", anonymous))).toEqual({ status: 401, code: 6, name: "no_valid_session" });
  });

  it("missing, other-chain and no-READ cases are all the same 544", async () => {
    const foreign = await createCampaign(
      core.db,
      { chainId: otherChain, title: "Foreign", isActive: false, activeDateFrom: null, activeDateUntil: null },
      { adminId: writer.id, endpoint: "internal/add-campaign" },
      new Date("2026-05-10T08:00:00Z"),
    );
    // An admin who can read both chains, sending this chain's header (and the other's below).
    const bothAdmin = await core.admin({ read: true }, otherChain);
    await grantAccess(core.db, bothAdmin.id, core.chainId, { read: true });
    const both = { ...bothAdmin.headers, "X-Service-Chain-ID": String(core.chainId) };
    const bothInOther = bothAdmin.headers;
    const noRead = await core.admin({ write: true, analytics: true });
    const elsewhere = await core.admin({ super_user: true }, otherChain);

    const missing = await changeLog("", reader.headers, 999_999);
    expect(errorOf(missing)).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    const sameAsMissing = (res: { status: number; body: unknown }) => expect(res).toEqual(missing);
    // Another chain's campaign under this chain's header, even for an admin who can read both chains.
    expect((await changeLog("", both)).status).toBe(200);
    expect((await changeLog("", bothInOther, foreign.id)).status).toBe(200);
    sameAsMissing(await changeLog("", both, foreign.id));
    // This chain's campaign under another chain's header.
    sameAsMissing(await changeLog("", bothInOther));
    // No READ on the header's chain (write alone is not READ), or no rights there at all.
    sameAsMissing(await changeLog("", noRead.headers));
    sameAsMissing(await changeLog("", { ...elsewhere.headers, "X-Service-Chain-ID": String(core.chainId) }));
  });

  it("a deleted campaign's change log stays readable with READ access, the delete entry first", async () => {
    const added = await core.json("/internal/add-campaign", encode("json", "POST", writer.headers, { chain_id: core.chainId, title: "Gone" }));
    const goneId = added.body.results.campaign.id;
    const deleter = await core.admin({ write: true, campaign: true });
    const deleted = await core.json("/internal/delete-campaign", encode("json", "DELETE", deleter.headers, { campaign_id: goneId }));
    expect(deleted.status).toBe(200);
    const res = await changeLog("", reader.headers, goneId);
    expect(res.status).toBe(200);
    const entries = res.body.results.resources;
    expect(res.body.results.total_count).toBe(2);
    expect(entries.map((e: { change_endpoint: string }) => e.change_endpoint)).toEqual(["internal/delete-campaign", "internal/add-campaign"]);
    expect(entries[0].diff).toMatchObject({ deleted: { from: false, to: true } });
    // Still the chain's own: another chain's header, or no READ, is 544 as for a missing campaign.
    const noRead = await core.admin({ write: true });
    expect(errorOf(await changeLog("", noRead.headers, goneId))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    const elsewhere = await core.admin({ super_user: true }, otherChain);
    expect(errorOf(await changeLog("", elsewhere.headers, goneId))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
  });

  it("the campaign offers only its change log: other methods and paths are 544", async () => {
    const before = await countRows(core);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await core.json(`/resources/campaign/${campaignId}/change_log`, { method, headers: { ...writer.headers, "content-type": "application/json" }, body: "{}" });
      expect(errorOf(res)).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    for (const path of [`/resources/campaign/${campaignId}`, "/resources/campaign", "/resources/campaigns", "/resources/campaign/abc/change_log", "/resources/campaign/1.5/change_log"]) {
      expect(errorOf(await core.json(path, { headers: writer.headers }))).toEqual({ status: 404, code: 544, name: "resource_not_found" });
    }
    expect(await countRows(core)).toEqual(before);
  });
});
