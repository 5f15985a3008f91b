import { describe, expect, it } from "vitest";
import { campaignSnapshot, diffCampaign, recordedDateTime, type CampaignSnapshot } from "./diff.ts";

const base: CampaignSnapshot = {
  title: "Spring",
  is_active: false,
  active_date_from: null,
  active_date_until: "2026-06-30T23:59:59Z",
  last_updated_date: "2026-01-01T00:00:00Z",
};

describe("recordedDateTime", () => {
  it("is RFC 3339 UTC to the second", () => {
    expect(recordedDateTime(new Date("2026-11-21T11:00:00.987+01:00"))).toBe("2026-11-21T10:00:00Z");
  });
});

describe("campaignSnapshot", () => {
  it("keeps native types: text, boolean, RFC 3339 text or null", () => {
    expect(
      campaignSnapshot({
        title: "T",
        isActive: true,
        activeDateFrom: new Date("2026-03-01T08:00:00Z"),
        activeDateUntil: null,
        lastModifiedDate: new Date("2026-02-01T12:34:56Z"),
      }),
    ).toEqual({
      title: "T",
      is_active: true,
      active_date_from: "2026-03-01T08:00:00Z",
      active_date_until: null,
      last_updated_date: "2026-02-01T12:34:56Z",
    });
  });
});

describe("diffCampaign", () => {
  it("lists only the changed fields, then last_updated_date", () => {
    const after = { ...base, title: "Summer", is_active: true, last_updated_date: "2026-01-02T00:00:00Z" };
    const diff = diffCampaign(base, after);
    expect(diff).toEqual({
      title: { from: "Spring", to: "Summer" },
      is_active: { from: false, to: true },
      last_updated_date: { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z" },
    });
    expect(Object.keys(diff)).toEqual(["title", "is_active", "last_updated_date"]);
  });

  it("records setting and clearing a date with null on one side", () => {
    const after = { ...base, active_date_from: "2026-04-01T00:00:00Z", active_date_until: null };
    expect(diffCampaign(base, after)).toMatchObject({
      active_date_from: { from: null, to: "2026-04-01T00:00:00Z" },
      active_date_until: { from: "2026-06-30T23:59:59Z", to: null },
    });
  });

  it("is empty when nothing but the time would change", () => {
    expect(diffCampaign(base, { ...base, last_updated_date: "2027-01-01T00:00:00Z" })).toEqual({});
  });

  it("keeps last_updated_date when a change happens within the same second", () => {
    expect(diffCampaign(base, { ...base, title: "Again" }).last_updated_date).toEqual({
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-01T00:00:00Z",
    });
  });

  it("a creation lists every field that starts with a value, from null", () => {
    expect(diffCampaign(null, base)).toEqual({
      title: { from: null, to: "Spring" },
      is_active: { from: null, to: false },
      active_date_until: { from: null, to: "2026-06-30T23:59:59Z" },
      last_updated_date: { from: null, to: "2026-01-01T00:00:00Z" },
    });
  });
});
