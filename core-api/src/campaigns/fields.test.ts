import { describe, expect, it } from "vitest";
import { readCampaignFields, readCampaignId, requireForwardPeriod } from "./fields.ts";
import { thrownErrorName as errorName } from "../http/thrown-error.test-support.ts";

describe("readCampaignId", () => {
  it("reads an integer from text or JSON", () => {
    expect(readCampaignId({ campaign_id: " 42 " })).toBe(42);
    expect(readCampaignId({ campaign_id: 7 })).toBe(7);
  });

  it.each([
    [{}, "campaign_id_not_present"],
    [{ campaign_id: "" }, "campaign_id_not_present"],
    [{ campaign_id: null }, "campaign_id_not_present"],
    [{ campaign_id: "4x" }, "campaign_id_invalid"],
    [{ campaign_id: 4.5 }, "campaign_id_invalid"],
    [{ campaign_id: true }, "campaign_id_invalid"],
  ])("%j: %s", (params, name) => {
    expect(errorName(() => readCampaignId(params as never))).toBe(name);
  });
});

describe("readCampaignFields", () => {
  it("returns only the fields given, typed", () => {
    expect(readCampaignFields({})).toEqual({});
    expect(
      readCampaignFields({ title: " T ", is_active: "off", active_date_from: "2026-01-01 00:00:00", active_date_until: "", other: "ignored" }),
    ).toEqual({ title: "T", isActive: false, activeDateFrom: new Date("2026-01-01T00:00:00Z"), activeDateUntil: null });
    expect(readCampaignFields({ active_date_until: null, is_active: true })).toEqual({ activeDateUntil: null, isActive: true });
  });

  it("stores datetimes to the whole second", () => {
    expect(readCampaignFields({ active_date_from: "2026-01-01T00:00:00.999Z", active_date_until: "2026-01-01t01:00:00.5+01:00" })).toEqual({
      activeDateFrom: new Date("2026-01-01T00:00:00Z"),
      activeDateUntil: new Date("2026-01-01T00:00:00Z"),
    });
  });

  it.each([
    [{ title: "x".repeat(256) }, "string_parameter_too_long"],
    [{ title: "" }, "parameter_invalid"],
    [{ title: { text: "x" } }, "parameter_invalid"],
    [{ is_active: "2" }, "parameter_supplied_not_boolean"],
    [{ active_date_from: "2026-01-01" }, "parameter_invalid"],
    [{ active_date_until: false }, "parameter_invalid"],
  ])("%j: %s", (params, name) => {
    expect(errorName(() => readCampaignFields(params as never))).toBe(name);
  });
});

describe("requireForwardPeriod", () => {
  const d = (iso: string) => new Date(iso);
  it("passes open ends and equal dates", () => {
    expect(errorName(() => requireForwardPeriod(null, d("2026-01-01T00:00:00Z")))).toBeUndefined();
    expect(errorName(() => requireForwardPeriod(d("2026-01-01T00:00:00Z"), null))).toBeUndefined();
    expect(errorName(() => requireForwardPeriod(d("2026-01-01T00:00:00Z"), d("2026-01-01T00:00:00Z")))).toBeUndefined();
  });
  it("refuses a period that runs backwards with 419", () => {
    expect(errorName(() => requireForwardPeriod(d("2026-01-01T00:00:01Z"), d("2026-01-01T00:00:00Z")))).toBe("parameter_invalid");
  });
});
