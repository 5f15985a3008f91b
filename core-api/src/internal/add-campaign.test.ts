import { addCampaignResponseSchema } from "@service/shared/internal/add-campaign";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode, ENCODINGS, type Encoding } from "../../../test/helpers/internal-calls.ts";
import { campaignRow, changeLogRows, countRows } from "../campaigns/campaign-test-support.ts";

const NOW = "2026-11-21T12:30:00Z";
let core: TestCore;
let writer: TestAdmin;
let reader: TestAdmin;
beforeAll(async () => {
  core = await startCore({ clock: () => new Date("2026-11-21T12:30:00.750Z") });
  writer = await core.admin({ write: true });
  reader = await core.admin({ read: true });
});
afterAll(() => core.close());

const add = (params: Record<string, unknown>, encoding: Encoding = "json", headers = writer.headers, path = "/internal/add-campaign") =>
  core.json(path, encode(encoding, "POST", headers, params as never));

describe("add-campaign: creating", () => {
  for (const encoding of ENCODINGS) {
    it(`stores the campaign and records its creation (${encoding})`, async () => {
      const { status, body } = await add(
        {
          chain_id: core.chainId,
          title: `  Spring ${encoding}  `,
          is_active: encoding === "json" ? true : "1",
          active_date_from: "2026-12-01 08:00:00",
          active_date_until: "2027-01-31T23:59:59+01:00",
        },
        encoding,
      );
      expect(status).toBe(200);
      const { campaign, result_type } = addCampaignResponseSchema.parse(body).results;
      expect(result_type).toBe("add-campaign");
      expect(campaign).toEqual({
        id: expect.any(Number),
        chain_id: core.chainId,
        title: `Spring ${encoding}`,
        is_active: true,
        active_date_from: "2026-12-01T08:00:00Z",
        active_date_until: "2027-01-31T22:59:59Z",
        created_date: NOW,
        last_modified_date: NOW,
      });
      expect(await campaignRow(core, campaign.id)).toMatchObject({
        chainId: core.chainId,
        title: `Spring ${encoding}`,
        isActive: true,
        activeDateFrom: new Date("2026-12-01T08:00:00Z"),
        activeDateUntil: new Date("2027-01-31T22:59:59Z"),
        deleted: false,
        lastUpdatedBy: writer.id,
        createdDate: new Date(NOW),
        lastModifiedDate: new Date(NOW),
      });
      const log = await changeLogRows(core, campaign.id);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        chainId: core.chainId,
        modelClass: "Campaign",
        modelId: campaign.id,
        changedBy: writer.id,
        changeEndpoint: "internal/add-campaign",
        createdDate: new Date(NOW),
        lastModifiedDate: new Date(NOW),
      });
      // Native types whatever the encoding: is_active a boolean, datetimes RFC 3339 UTC text.
      expect(log[0]!.diff).toEqual({
        title: { from: null, to: `Spring ${encoding}` },
        is_active: { from: null, to: true },
        active_date_from: { from: null, to: "2026-12-01T08:00:00Z" },
        active_date_until: { from: null, to: "2027-01-31T22:59:59Z" },
        last_updated_date: { from: null, to: NOW },
      });
    });
  }

  it("defaults: inactive, no dates; the diff leaves out the fields that start empty", async () => {
    const { body } = await add({ chain_id: String(core.chainId), title: "Plain", active_date_from: "" }, "form");
    const { campaign } = addCampaignResponseSchema.parse(body).results;
    expect(campaign).toMatchObject({ is_active: false, active_date_from: null, active_date_until: null });
    const [entry] = await changeLogRows(core, campaign.id);
    expect(entry!.diff).toEqual({
      title: { from: null, to: "Plain" },
      is_active: { from: null, to: false },
      last_updated_date: { from: null, to: NOW },
    });
  });

  it("formats datetimes per X-Service-API-version and serves the .json path", async () => {
    const { status, body } = await add(
      { chain_id: core.chainId, title: "Old client", active_date_until: "2027-01-01T00:00:00Z" },
      "json",
      { ...writer.headers, "X-Service-API-version": "1.5.8" },
      "/internal/add-campaign.json",
    );
    expect(status).toBe(200);
    const { campaign } = addCampaignResponseSchema.parse(body).results;
    expect(campaign).toMatchObject({ created_date: "2026-11-21 12:30:00", active_date_until: "2027-01-01 00:00:00" });
    // The log keeps one form whatever the version of the request.
    const [entry] = await changeLogRows(core, campaign.id);
    expect(entry!.diff.active_date_until).toEqual({ from: null, to: "2027-01-01T00:00:00Z" });
  });

  it("a title of exactly 255 characters and equal from / until dates are accepted", async () => {
    const { status, body } = await add({
      chain_id: core.chainId,
      title: "t".repeat(255),
      active_date_from: "2027-01-01 00:00:00",
      active_date_until: "2027-01-01T00:00:00Z",
    });
    expect(status).toBe(200);
    expect(body.results.campaign.title).toHaveLength(255);
  });
});

describe("add-campaign: errors (nothing is written)", () => {
  /** [what, params merged over a valid chain_id and title, code, name, HTTP status, encoding] */
  const CASES: Array<[string, Record<string, unknown>, number, string, number, Encoding?]> = [
    ["chain_id missing", { chain_id: undefined }, 3, "http_vars_missing", 400],
    ["title missing", { title: undefined }, 3, "http_vars_missing", 400, "form"],
    ["title blank", { title: "   " }, 3, "http_vars_missing", 400, "multipart"],
    ["chain_id not an integer", { chain_id: "one" }, 76, "chain_id_invalid", 400],
    ["chain_id a decimal", { chain_id: "1.5" }, 76, "chain_id_invalid", 400, "form"],
    ["a chain that does not exist", { chain_id: 999_999 }, 68, "permission_denied_or_non_existent", 403],
    ["title over 255", { title: "t".repeat(256) }, 482, "string_parameter_too_long", 400],
    ["is_active not a boolean", { is_active: "maybe" }, 316, "parameter_supplied_not_boolean", 400, "form"],
    ["active_date_from not a datetime", { active_date_from: "next monday" }, 419, "parameter_invalid", 400],
    ["active_date_until an impossible date", { active_date_until: "2026-02-30 10:00:00" }, 419, "parameter_invalid", 400, "form"],
    ["active_date_from a JSON number", { active_date_from: 1767225600 }, 419, "parameter_invalid", 400],
    ["active_date_from after active_date_until", { active_date_from: "2027-01-02 00:00:00", active_date_until: "2027-01-01T23:59:59Z" }, 419, "parameter_invalid", 400],
  ];
  for (const [what, params, code, name, httpStatus, encoding = "json"] of CASES) {
    it(`${what}: ${code} ${name}`, async () => {
      const merged: Record<string, unknown> = { chain_id: core.chainId, title: "Valid", ...params };
      for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
      const before = await countRows(core);
      const { status, body } = await add(merged, encoding);
      expect(body.error).toMatchObject({ code, name });
      expect(body.result).toEqual({ code, status: "error" });
      expect(status).toBe(httpStatus);
      expect(await countRows(core)).toEqual(before);
    });
  }

  it("no session: 6 no_valid_session (401)", async () => {
    const before = await countRows(core);
    const { status, body } = await add({ chain_id: core.chainId, title: "T" }, "json", {});
    expect(status).toBe(401);
    expect(body.error).toMatchObject({ code: 6, name: "no_valid_session" });
    const expired = await add({ chain_id: core.chainId, title: "T" }, "json", { ...writer.headers, "X-Service-Session-Key": "wrong" });
    expect(expired.body.error.code).toBe(6);
    expect(await countRows(core)).toEqual(before);
  });

  it("read access only, or rights on another chain only: 68 (403)", async () => {
    const otherChain = await core.createChain();
    const elsewhere = await core.admin({ super_user: true }, otherChain);
    const before = await countRows(core);
    for (const headers of [reader.headers, elsewhere.headers]) {
      const { status, body } = await add({ chain_id: core.chainId, title: "T" }, "json", headers);
      expect(status).toBe(403);
      expect(body.error).toMatchObject({ code: 68, name: "permission_denied_or_non_existent" });
    }
    expect(await countRows(core)).toEqual(before);
  });

  it("any method but POST: 13 http_request_method_non_POST_not_allowed (405)", async () => {
    const before = await countRows(core);
    for (const method of ["GET", "PUT", "DELETE"]) {
      const { status, body } = await core.json(`/internal/add-campaign?chain_id=${core.chainId}&title=x`, { method, headers: writer.headers });
      expect(status).toBe(405);
      expect(body.error).toMatchObject({ code: 13, name: "http_request_method_non_POST_not_allowed" });
    }
    expect(await countRows(core)).toEqual(before);
  });

  it("a body that is not valid JSON: 419", async () => {
    const before = await countRows(core);
    const { status, body } = await core.json("/internal/add-campaign", {
      method: "POST",
      headers: { ...writer.headers, "content-type": "application/json" },
      body: '{"title":',
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 419, name: "parameter_invalid" });
    expect(await countRows(core)).toEqual(before);
  });
});
