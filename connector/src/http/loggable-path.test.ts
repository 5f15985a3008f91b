/**
 * Paths and route parameters as the connector's logs show them (http/loggable-path.ts): no
 * customer email, raw or percent-encoded, in any path.
 */
import { describe, expect, it } from "vitest";
import { loggableParams, loggablePath } from "./loggable-path.ts";

const PREFIX = "/rest/V1/service/customer";

describe("loggablePath", () => {
  it.each([
    [`${PREFIX}/user_info_by_email/1/ann@example.com`, `${PREFIX}/user_info_by_email/[redacted]`],
    [`${PREFIX}/user_info_by_email/ann@example.com?x=1`, `${PREFIX}/user_info_by_email/[redacted]`],
    [`${PREFIX}/user_info_by_email/1/ann%40example.com/extra`, `${PREFIX}/user_info_by_email/[redacted]`],
    [`${PREFIX}/USER_INFO_BY_EMAIL/2/ann@example.com`, `${PREFIX}/USER_INFO_BY_EMAIL/[redacted]`],
    // no @ needed: whatever follows the prefix is the email's place
    [`${PREFIX}/user_info_by_email/1/not-quite-an-email`, `${PREFIX}/user_info_by_email/[redacted]`],
    // an email anywhere else
    [`${PREFIX}/user_info/ann@example.com`, `${PREFIX}/user_info/[redacted]`],
    ["/no/such/ann%40example.com/path#frag", "/no/such/[redacted]/path"],
  ])("%s -> %s", (url, logged) => {
    expect(loggablePath(url)).toBe(logged);
  });

  it.each([[`${PREFIX}/user_info/17`], ["/health"], [`${PREFIX}/authenticate`], [`${PREFIX}/user_info_by_email`], ["/"]])("keeps %s", (path) => {
    expect(loggablePath(`${path}?email=ann@example.com`)).toBe(path);
  });
});

describe("loggableParams", () => {
  it("redacts the customer email and any value with an @, keeps the rest", () => {
    expect(loggableParams({ serviceChainId: "1", customerEmail: "ann@example.com" })).toEqual({ serviceChainId: "1", customerEmail: "[redacted]" });
    expect(loggableParams({ customerEmail: "no-at-sign", other: "x%40y", customerId: "17" })).toEqual({ customerEmail: "[redacted]", other: "[redacted]", customerId: "17" });
  });
});
