import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { createAdmin, grantAccess } from "../db/seed.ts";
import { sessions } from "../db/schema.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const post = (body: unknown, type = "application/json") => ({
  method: "POST",
  headers: { "content-type": type },
  body: type === "application/json" ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(),
});

describe("POST /auth/login", () => {
  it("logs an admin in with JSON and with a form, storing only the key's hash", async () => {
    const id = await createAdmin(core.db, { username: "login@example.com", password: "correct horse" });
    await grantAccess(core.db, id, core.chainId, { read: true });
    for (const init of [post({ username: "login@example.com", password: "correct horse" }), post({ username: "login@example.com", password: "correct horse" }, "application/x-www-form-urlencoded")]) {
      const { status, body } = await core.json("/auth/login", init);
      expect(status).toBe(200);
      expect(body.result).toEqual({ code: 1, status: "ok" });
      expect(body.results.session_info.session_user_id).toBe(id);
      expect(body.results.session_info.session_key).toMatch(/^[0-9a-f]{64}$/);
      expect(body.results.session_info.expiry).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const rows = await core.db.select().from(sessions);
      expect(rows.some((r) => r.keyHash === body.results.session_info.session_key)).toBe(false);
    }
  });

  it("refuses a wrong password and an unknown user alike with no_valid_session", async () => {
    await createAdmin(core.db, { username: "wrong@example.com", password: "right" });
    for (const creds of [{ username: "wrong@example.com", password: "nope" }, { username: "nobody@example.com", password: "x" }]) {
      const { status, body } = await core.json("/auth/login", post(creds));
      expect(status).toBe(401);
      expect(body.error).toMatchObject({ code: 6, name: "no_valid_session" });
      expect(body.result).toEqual({ code: 6, status: "error" });
    }
  });

  it("requires username and password", async () => {
    const { status, body } = await core.json("/auth/login", post({ username: "a@example.com" }));
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 441, name: "parameter_missing" });
  });

  it("formats the expiry per API version", async () => {
    const id = await createAdmin(core.db, { username: "old@example.com", password: "pw" });
    void id;
    const init = post({ username: "old@example.com", password: "pw" });
    (init.headers as Record<string, string>)["X-Service-API-version"] = "1.5.8";
    const { body } = await core.json("/auth/login", init);
    expect(body.results.session_info.expiry).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});

describe("sessions", () => {
  it("a session authenticates until logout; afterwards no_valid_session", async () => {
    const admin = await core.admin({ read: true });
    const probe = () => core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers: admin.headers });
    expect((await probe()).status).not.toBe(401);
    const out = await core.json("/auth/logout", { method: "DELETE", headers: admin.headers });
    expect(out.status).toBe(200);
    const after = await probe();
    expect(after.status).toBe(401);
    expect(after.body.error.name).toBe("no_valid_session");
  });

  it("rejects a forged key and malformed headers", async () => {
    const admin = await core.admin({ read: true });
    for (const headers of [
      { ...admin.headers, "X-Service-Session-Key": "0".repeat(64) },
      { ...admin.headers, "X-Service-Session-User-ID": "abc" },
      { "X-Service-Session-User-ID": admin.headers["X-Service-Session-User-ID"]! },
    ]) {
      const { status, body } = await core.json(`/internal/get-businesses?chain_id=${core.chainId}`, { headers });
      expect(status).toBe(401);
      expect(body.error.code).toBe(6);
    }
  });

  it("an expired session is refused", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const timed = await startCore({ clock: () => now });
    try {
      const admin = await timed.admin({ read: true });
      now = new Date("2026-01-03T00:00:00Z");
      const { status, body } = await timed.json(`/internal/get-businesses?chain_id=${timed.chainId}`, { headers: admin.headers });
      expect(status).toBe(401);
      expect(body.error.name).toBe("no_valid_session");
    } finally {
      await timed.close();
    }
  });
});

describe("requests in general", () => {
  it("refuses a body over 1 MiB with 413 and parameter_invalid", async () => {
    const { status, body } = await core.json("/auth/login", post({ username: "x".repeat(1024 * 1024 + 10), password: "y" }));
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: 419, name: "parameter_invalid" });
  });
  it("refuses a malformed X-Service-API-version", async () => {
    const { status, body } = await core.json("/auth/login", { ...post({}), headers: { "content-type": "application/json", "X-Service-API-version": "one" } });
    expect(status).toBe(400);
    expect(body.error.name).toBe("parameter_invalid");
  });
  it("answers an unknown internal path and an unknown resource alike: 544 / 404", async () => {
    const a = await core.json("/internal/no-such-call");
    expect(a.status).toBe(404);
    expect(a.body.error.code).toBe(544);
    const b = await core.json("/resources/no-such-thing");
    expect(b.status).toBe(404);
    expect(b.body.error.code).toBe(544);
  });
});
