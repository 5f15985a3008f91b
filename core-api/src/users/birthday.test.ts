/** Birthday forms (spec, "Internal call: add-user": birthday, birthday_field_format). Pure. */
import { describe, expect, it } from "vitest";
import { ServiceError } from "../http/service-error.ts";
import { parseBirthday } from "./birthday.ts";

const TODAY = new Date("2026-11-21T10:00:00Z");
const refused = (text: string, format?: Parameters<typeof parseBirthday>[1]) => {
  try {
    parseBirthday(text, format, TODAY);
    return "accepted";
  } catch (err) {
    return err instanceof ServiceError ? err.errorName : "other";
  }
};

describe("parseBirthday", () => {
  it("takes an ISO 8601 date, and a date-time with an offset converted to UTC", () => {
    expect(parseBirthday("1990-05-06", undefined, TODAY)).toBe("1990-05-06");
    expect(parseBirthday("1990-05-06T23:30:00-02:00", undefined, TODAY)).toBe("1990-05-07");
    expect(parseBirthday("1990-05-06T00:30:00+02:00", undefined, TODAY)).toBe("1990-05-05");
    expect(parseBirthday("1990-05-06T00:30+0200", undefined, TODAY)).toBe("1990-05-05");
    expect(parseBirthday("1990-05-06T12:00:00Z", undefined, TODAY)).toBe("1990-05-06");
    expect(parseBirthday("1990-05-06T12:00:00", undefined, TODAY)).toBe("1990-05-06");
  });

  it("takes each of the four field formats, and ISO 8601 alongside any of them", () => {
    const cases: Array<[string, Parameters<typeof parseBirthday>[1]]> = [
      ["06-05-1990", "DD-MM-YYYY"],
      ["6-5-1990", "D-M-YYYY"],
      ["06/05/1990", "DD/MM/YYYY"],
      ["6/5/1990", "D/M/YYYY"],
      ["06/5/1990", "D/M/YYYY"],
      ["1990-05-06", "DD/MM/YYYY"],
    ];
    expect(cases).toHaveLength(6);
    for (const [text, format] of cases) expect(parseBirthday(text, format, TODAY), `${text} ${format}`).toBe("1990-05-06");
  });

  it("refuses other forms, a form other than the format named, impossible and future dates (419)", () => {
    const cases: Array<[string, Parameters<typeof parseBirthday>[1]]> = [
      ["06-05-1990", undefined],
      ["6/5/1990", "DD/MM/YYYY"],
      ["06-05-1990", "DD/MM/YYYY"],
      ["1990/05/06", undefined],
      ["May 6 1990", undefined],
      ["1990-02-30", undefined],
      ["31-04-1990", "DD-MM-YYYY"],
      ["1990-13-01", undefined],
      ["1990-02-30T10:00:00+01:00", undefined],
      ["2027-01-01", undefined],
      ["0999-01-01", undefined],
    ];
    expect(cases).toHaveLength(11);
    for (const [text, format] of cases) expect(refused(text, format), `${text} ${format}`).toBe("parameter_invalid");
  });
});
