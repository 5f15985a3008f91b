/**
 * Datetimes in responses (http/api-version.ts formatDateTime): RFC 3339 from 1.6.8, the older
 * form before, whatever order instants and versions come in (the last one is remembered).
 */
import { describe, expect, it } from "vitest";
import { formatDateTime, NEWEST_API_VERSION, type ApiVersion } from "./api-version.ts";

const OLD: ApiVersion = [1, 6, 7];

describe("formatDateTime", () => {
  it("formats each instant for each version, repeated and interleaved", () => {
    const a = new Date("2026-11-21T10:00:00Z");
    const b = new Date("2026-11-22T23:45:03.900Z");
    const calls: Array<[Date, ApiVersion, string]> = [
      [a, NEWEST_API_VERSION, "2026-11-21T10:00:00Z"],
      [a, NEWEST_API_VERSION, "2026-11-21T10:00:00Z"],
      [a, OLD, "2026-11-21 10:00:00"],
      [a, NEWEST_API_VERSION, "2026-11-21T10:00:00Z"],
      [b, NEWEST_API_VERSION, "2026-11-22T23:45:03Z"],
      [new Date(b.getTime()), OLD, "2026-11-22 23:45:03"],
      [a, OLD, "2026-11-21 10:00:00"],
    ];
    for (const [date, version, text] of calls) expect(formatDateTime(date, version)).toBe(text);
    expect(formatDateTime(null, NEWEST_API_VERSION)).toBeNull();
    expect(() => formatDateTime(new Date(Number.NaN), NEWEST_API_VERSION)).toThrow(RangeError);
  });
});
