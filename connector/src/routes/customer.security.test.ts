/**
 * Integration-token authentication and request hygiene of every connector endpoint (handbook,
 * "connector auth" / "connector errors"): 401 in Magento's wording, nothing read or written.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshot, startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

const BASE = "/rest/V1/service/customer";
let h: Harness;

const ENDPOINTS: Array<[string, string, unknown]> = [
  ["POST", `${BASE}/authenticate`, { email: "a@example.com", password: "x" }],
  ["POST", `${BASE}/update`, { user_info: { username: "a@example.com" }, create_if_not_exists: true }],
  ["GET", `${BASE}/user_info/1`, undefined],
  ["GET", `${BASE}/user_info_by_email/a@example.com`, undefined],
  ["GET", `${BASE}/user_info_by_email/1/a@example.com`, undefined],
];
const UNAUTHORIZED = {
  message: "The consumer isn't authorized to access %resources.",
  parameters: { resources: "Service_Connector::customer" },
};

beforeAll(async () => {
  h = await startHarness("webshop_security");
});
afterAll(async () => {
  await h?.close();
});

describe("integration token", () => {
  it("stores only the token's sha256", async () => {
    const rows = await h.rows("service_integration_token");
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash("sha256").update(TEST_TOKEN).digest("hex"));
    expect(JSON.stringify(rows)).not.toContain(TEST_TOKEN);
  });

  it.each(ENDPOINTS)("%s %s: 401 without a token, with a wrong one or another scheme", async (method, path, body) => {
    const before = await snapshot(h);
    for (const token of [null, "wrong-token", `${TEST_TOKEN}x`, ""]) {
      expect(await h.call(method, path, body, { token })).toEqual({ status: 401, body: UNAUTHORIZED });
    }
    const basic = await fetch(`${h.url}${path}`, { method, headers: { authorization: `Basic ${TEST_TOKEN}` } });
    expect(basic.status).toBe(401);
    expect(await snapshot(h)).toEqual(before);
  });

  it("a revoked token fails its very next request", async () => {
    const ok = await h.call("POST", `${BASE}/update`, { user_info: { username: "a@example.com" }, create_if_not_exists: true });
    expect(ok.status).toBe(200);
    await h.exec("UPDATE service_integration_token SET is_active = 0");
    expect(await h.call("GET", `${BASE}/user_info/${ok.body.id}`)).toEqual({ status: 401, body: UNAUTHORIZED });
    await h.exec("UPDATE service_integration_token SET is_active = 1");
    expect((await h.call("GET", `${BASE}/user_info/${ok.body.id}`)).status).toBe(200);
  });
});

describe("request hygiene", () => {
  it("400 for malformed JSON and a missing body; 413 over 1 MiB; 404 for unknown routes", async () => {
    const before = await snapshot(h);
    const bad = await h.call("POST", `${BASE}/update`, undefined, { raw: "{not json" });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe("string");
    const noBody = await h.call("POST", `${BASE}/authenticate`);
    expect(noBody.status).toBe(400);
    const huge = await h.call("POST", `${BASE}/update`, { user_info: { first_name: "x".repeat(1024 * 1024 + 10) } });
    expect(huge.status).toBe(413);
    expect(await h.call("GET", `${BASE}/nope`)).toEqual({ status: 404, body: { message: "Request does not match any route." } });
    expect((await h.call("GET", `${BASE}/update`)).status).toBe(404);
    expect(await snapshot(h)).toEqual(before);
  });
});
