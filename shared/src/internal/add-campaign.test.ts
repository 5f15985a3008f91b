import { describe, expect, it } from "vitest";
import { addCampaignParamsSchema, parseCampaignDateTime } from "./add-campaign.ts";
import { alterCampaignParamsSchema } from "./alter-campaign.ts";

describe("parseCampaignDateTime", () => {
  it.each([
    ["2026-11-21T10:00:00Z", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21t10:00:00z", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21T11:30:00+01:30", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21T05:00:00-05:00", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21T10:00:00.999Z", "2026-11-21T10:00:00.000Z"],
    ["2026-11-21 10:00:00", "2026-11-21T10:00:00.000Z"],
    ["2024-02-29 23:59:59", "2024-02-29T23:59:59.000Z"],
  ])("%s is %s", (text, iso) => {
    expect(parseCampaignDateTime(text)?.toISOString()).toBe(iso);
  });

  it.each([
    "2026-11-21",
    "2026-11-21T10:00:00",
    "2026-11-21 10:00",
    "2026-11-21 10:00:00Z",
    "21-11-2026 10:00:00",
    "2026-02-30 10:00:00",
    "2025-02-29 10:00:00",
    "2026-13-01 10:00:00",
    "2026-11-21 24:00:00",
    "2026-11-21 10:60:00",
    "2026-11-21 10:00:60",
    "2026-11-21T10:00:00+24:00",
    "0999-12-31 23:59:59",
    "9999-12-31T23:59:59-01:00",
    "tomorrow",
    "",
  ])("%s is refused", (text) => {
    expect(parseCampaignDateTime(text)).toBeNull();
  });
});

describe("campaign params schemas", () => {
  it("add-campaign takes form text and JSON values", () => {
    expect(addCampaignParamsSchema.safeParse({ chain_id: "1", title: "T", is_active: "yes", active_date_from: "2026-01-01 00:00:00" }).success).toBe(true);
    expect(addCampaignParamsSchema.safeParse({ chain_id: 1, title: "T", is_active: true, active_date_until: null }).success).toBe(true);
  });

  it.each([
    ["no title", { chain_id: 1 }],
    ["blank title", { chain_id: 1, title: "  " }],
    ["title over 255", { chain_id: 1, title: "x".repeat(256) }],
    ["chain_id not an integer", { chain_id: "one", title: "T" }],
    ["is_active not a boolean", { chain_id: 1, title: "T", is_active: "maybe" }],
    ["bad datetime", { chain_id: 1, title: "T", active_date_from: "2026-02-30 00:00:00" }],
    ["period backwards", { chain_id: 1, title: "T", active_date_from: "2026-02-01T00:00:00Z", active_date_until: "2026-01-31 23:59:59" }],
  ])("add-campaign refuses %s", (_, params) => {
    expect(addCampaignParamsSchema.safeParse(params).success).toBe(false);
  });

  it("alter-campaign needs only campaign_id and refuses a blank title", () => {
    expect(alterCampaignParamsSchema.safeParse({ campaign_id: "7" }).success).toBe(true);
    expect(alterCampaignParamsSchema.safeParse({ title: "T" }).success).toBe(false);
    expect(alterCampaignParamsSchema.safeParse({ campaign_id: 7, title: "" }).success).toBe(false);
  });
});
