import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allClients, clientRow, seedClient, seedToken, tokenRow } from "../clients/client-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
beforeAll(async () => {
  w = await startResourcesWorld();
});
afterAll(() => w.core.close());

const seed = (values: Parameters<typeof seedClient>[3] = {}, chainId = w.core.chainId) => seedClient(w.core.db, chainId, w.now(), values);
const token = (clientId: number, chainId = w.core.chainId) => seedToken(w.core.db, chainId, clientId, w.now());

describe("POST /resources/service_client", () => {
  it("creates an enabled client in the header chain and answers with it", async () => {
    w.setNow("2026-01-01T01:00:00Z");
    const { status, body } = await w.call("POST", "/resources/service_client", { name: "Till system", email_contact: "ops@example.com" });
    expect(status).toBe(200);
    expect(body.results).toEqual({
      chain: { id: w.core.chainId, name: "Test Chain", deleted: false, app: null },
      created_date: "2026-01-01T01:00:00Z",
      deleted: false,
      deleted_by: null,
      email_contact: "ops@example.com",
      enabled: true,
      id: body.results.id,
      is_identity_source: false,
      last_modified_date: "2026-01-01T01:00:00Z",
      last_updated_by: { id: w.admin.id },
      name: "Till system",
    });
    expect(await clientRow(w.core.db, body.results.id)).toMatchObject({
      chainId: w.core.chainId,
      name: "Till system",
      emailContact: "ops@example.com",
      enabled: true,
      isIdentitySource: false,
      deleted: false,
      deletedBy: null,
      lastUpdatedBy: w.admin.id,
      createdDate: new Date("2026-01-01T01:00:00Z"),
    });
  });

  it("without email_contact stores null and leaves the property out; accepts a form body", async () => {
    const res = await w.call("POST", "/resources/service_client", { name: "No contact" });
    expect(res.status).toBe(200);
    expect(res.body.results).not.toHaveProperty("email_contact");
    expect((await clientRow(w.core.db, res.body.results.id))!.emailContact).toBeNull();
    const form = await w.core.json("/resources/service_client", {
      method: "POST",
      headers: { ...w.admin.headers, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Form client", email_contact: "form@example.com", is_identity_source: "0" }).toString(),
    });
    expect(form.status).toBe(200);
    expect(await clientRow(w.core.db, form.body.results.id)).toMatchObject({ name: "Form client", emailContact: "form@example.com", isIdentitySource: false });
  });

  it("refuses bad bodies with the spec's errors and writes nothing", async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ name: "X", colour: "red" }, 419, "parameter_invalid"],
      [{ name: "X", id: 5 }, 419, "parameter_invalid"],
      [{ name: "X", chain: { id: w.core.chainId } }, 419, "parameter_invalid"],
      [{ name: "X", chain: { id: 999 } }, 419, "parameter_invalid"],
      [{ name: "X", enabled: false }, 419, "parameter_invalid"],
      [{ name: "X", deleted: true }, 419, "parameter_invalid"],
      [{ name: "X", deleted_by: { id: 1 } }, 419, "parameter_invalid"],
      [{ name: "X", last_updated_by: { id: 1 } }, 419, "parameter_invalid"],
      [{ name: "X", created_date: "2026-01-01T00:00:00Z" }, 419, "parameter_invalid"],
      [{ name: "X", access_tokens: [] }, 419, "parameter_invalid"],
      [{ name: 12 }, 419, "parameter_invalid"],
      [{ name: "" }, 419, "parameter_invalid"],
      [{ name: null }, 419, "parameter_invalid"],
      [{ name: "X", email_contact: "not an email" }, 419, "parameter_invalid"],
      [{ name: "X", email_contact: "a@b" }, 419, "parameter_invalid"],
      [{ name: "X", email_contact: null }, 419, "parameter_invalid"],
      [{ name: "X", email_contact: 5 }, 419, "parameter_invalid"],
      [{ name: "X", is_identity_source: "yes" }, 419, "parameter_invalid"],
      [{ name: "x".repeat(256) }, 482, "string_parameter_too_long"],
      [{ name: "X", email_contact: `${"a".repeat(60)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(62)}.example.com` }, 482, "string_parameter_too_long"],
      [{ email_contact: "ops@example.com" }, 441, "parameter_missing"],
      [{}, 441, "parameter_missing"],
    ];
    const before = await allClients(w.core.db);
    for (const [body, code, name] of cases) {
      const res = await w.call("POST", "/resources/service_client", body);
      expect({ body, ...errorOf(res) }).toEqual({ body, status: 400, code, name });
    }
    expect(errorOf(await w.call("POST", "/resources/service_client?name=Q", { name: "X" })).code).toBe(419);
    expect(errorOf(await w.call("POST", "/resources/service_client/5", { name: "X" })).code).toBe(544);
    expect(await allClients(w.core.db)).toEqual(before);
  });

  it("accepts names of exactly 1 and 255 characters and an email of 256", async () => {
    const email = `${"a".repeat(60)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(61)}.example.com`;
    expect(email).toHaveLength(256);
    for (const body of [{ name: "x" }, { name: "y".repeat(255), email_contact: email }]) {
      expect((await w.call("POST", "/resources/service_client", body)).status).toBe(200);
    }
  });
});

describe("PATCH and PUT /resources/service_client", () => {
  it("PATCH changes only the given properties, by id and by ?id=, and records the admin", async () => {
    const c = await seed({ name: "Patch me", emailContact: "a@example.com" });
    w.setNow("2026-01-01T02:00:00Z");
    const res = await w.call("PATCH", `/resources/service_client/${c.id}`, { name: "Patched", id: c.id });
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ name: "Patched", email_contact: "a@example.com", last_modified_date: "2026-01-01T02:00:00Z", last_updated_by: { id: w.admin.id } });
    expect(await clientRow(w.core.db, c.id)).toMatchObject({ name: "Patched", emailContact: "a@example.com", enabled: true, lastUpdatedBy: w.admin.id });
    const byQuery = await w.call("PATCH", `/resources/service_client?id=${c.id}`, { email_contact: "b@example.com" });
    expect(byQuery.status).toBe(200);
    expect((await clientRow(w.core.db, c.id))!.emailContact).toBe("b@example.com");
  });

  it("PUT replaces: is_identity_source resets to false, name is required; enabled and email_contact stay when left out", async () => {
    const c = await seed({ name: "Put me", emailContact: "keep@example.com" });
    await w.call("PATCH", `/resources/service_client/${c.id}`, { enabled: false });
    const res = await w.call("PUT", `/resources/service_client/${c.id}`, { name: "Put again" });
    expect(res.status).toBe(200);
    expect(await clientRow(w.core.db, c.id)).toMatchObject({ name: "Put again", emailContact: "keep@example.com", enabled: false, isIdentitySource: false });
    const before = await clientRow(w.core.db, c.id);
    expect(errorOf(await w.call("PUT", `/resources/service_client/${c.id}`, { email_contact: "x@example.com" }))).toEqual({ status: 400, code: 441, name: "parameter_missing" });
    expect(await clientRow(w.core.db, c.id)).toEqual(before);
  });

  it("refuses bad bodies with the spec's errors and changes nothing", async () => {
    const c = await seed({ name: "Guarded", emailContact: "g@example.com" });
    const cases: Array<[string, unknown, number, string]> = [
      ["PATCH", { colour: "red" }, 419, "parameter_invalid"],
      ["PATCH", { id: c.id + 1000 }, 419, "parameter_invalid"],
      ["PATCH", { chain: { id: w.core.chainId } }, 419, "parameter_invalid"],
      ["PUT", { name: "X", chain: { id: 999 } }, 419, "parameter_invalid"],
      ["PATCH", { deleted: true }, 419, "parameter_invalid"],
      ["PATCH", { deleted_by: null }, 419, "parameter_invalid"],
      ["PATCH", { last_modified_date: "2026-01-01T00:00:00Z" }, 419, "parameter_invalid"],
      ["PATCH", { access_tokens: [] }, 419, "parameter_invalid"],
      ["PATCH", { enabled: "maybe" }, 419, "parameter_invalid"],
      ["PATCH", { enabled: null }, 419, "parameter_invalid"],
      ["PATCH", { is_identity_source: 2 }, 419, "parameter_invalid"],
      ["PATCH", { name: "" }, 419, "parameter_invalid"],
      ["PATCH", { name: ["a"] }, 419, "parameter_invalid"],
      ["PATCH", { email_contact: "nope" }, 419, "parameter_invalid"],
      ["PATCH", { name: "n".repeat(256) }, 482, "string_parameter_too_long"],
      ["PUT", { name: "n".repeat(256) }, 482, "string_parameter_too_long"],
      ["PUT", {}, 441, "parameter_missing"],
    ];
    const before = await allClients(w.core.db);
    for (const [method, body, code, name] of cases) {
      const res = await w.call(method, `/resources/service_client/${c.id}`, body);
      expect({ method, body, ...errorOf(res) }).toEqual({ method, body, status: 400, code, name });
    }
    expect(errorOf(await w.call("PATCH", `/resources/service_client/${c.id}?id=${c.id}`, { name: "Q" })).code).toBe(419);
    expect(errorOf(await w.call("PATCH", "/resources/service_client?id=abc", { name: "Q" })).code).toBe(419);
    expect(errorOf(await w.call("PATCH", "/resources/service_client", { name: "Q" })).code).toBe(441);
    expect(errorOf(await w.call("PATCH", "/resources/service_client/abc", { name: "Q" })).code).toBe(544);
    expect(errorOf(await w.call("PATCH", "/resources/service_client/999999", { name: "Q" })).code).toBe(544);
    expect(await allClients(w.core.db)).toEqual(before);
  });
});

describe("revocation: disabling or deleting a client deactivates its tokens", () => {
  it("PATCH enabled=false deactivates every token of that client only, in the same request", async () => {
    const c = await seed({ name: "Disable me" });
    const other = await seed({ name: "Bystander" });
    const [t1, t2, t3] = [await token(c.id), await token(c.id), await token(other.id)];
    w.setNow("2026-01-01T03:00:00Z");
    const res = await w.call("PATCH", `/resources/service_client/${c.id}`, { enabled: false });
    expect(res.status).toBe(200);
    expect(res.body.results.enabled).toBe(false);
    expect((await clientRow(w.core.db, c.id))!.enabled).toBe(false);
    for (const t of [t1, t2]) {
      expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({
        active: false,
        deleted: false,
        lastUpdatedBy: w.admin.id,
        lastModifiedDate: new Date("2026-01-01T03:00:00Z"),
      });
    }
    expect(await tokenRow(w.core.db, t3.row.id)).toMatchObject({ active: true, lastUpdatedBy: null });
    // re-enabling does not bring the revoked tokens back
    expect((await w.call("PATCH", `/resources/service_client/${c.id}`, { enabled: true })).status).toBe(200);
    expect((await tokenRow(w.core.db, t1.row.id))!.active).toBe(false);
  });

  it("PUT with enabled=false does the same", async () => {
    const c = await seed({ name: "Put off" });
    const t = await token(c.id);
    expect((await w.call("PUT", `/resources/service_client/${c.id}`, { name: "Put off", enabled: false })).status).toBe(200);
    expect((await tokenRow(w.core.db, t.row.id))!.active).toBe(false);
  });

  it("DELETE soft-deletes the client (deleted_by = the admin) and deactivates its tokens", async () => {
    const c = await seed({ name: "Delete me" });
    const t = await token(c.id);
    w.setNow("2026-01-01T04:00:00Z");
    const res = await w.call("DELETE", `/resources/service_client/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body.results).toMatchObject({ id: c.id, deleted: true, deleted_by: { id: w.admin.id }, last_updated_by: { id: w.admin.id } });
    expect(await clientRow(w.core.db, c.id)).toMatchObject({
      deleted: true,
      deletedBy: w.admin.id,
      lastUpdatedBy: w.admin.id,
      lastModifiedDate: new Date("2026-01-01T04:00:00Z"),
    });
    expect(await tokenRow(w.core.db, t.row.id)).toMatchObject({ active: false, deleted: false, lastUpdatedBy: w.admin.id });
    expect(errorOf(await w.call("GET", `/resources/service_client/${c.id}`)).code).toBe(544);
    expect(errorOf(await w.call("DELETE", `/resources/service_client/${c.id}`)).code).toBe(544);
    expect(errorOf(await w.call("PATCH", `/resources/service_client/${c.id}`, { enabled: true })).code).toBe(544);
    expect((await clientRow(w.core.db, c.id))!.enabled).toBe(true);
  });

  it("DELETE by ?id= works; DELETE without an identifier is 441 and deletes nothing", async () => {
    const c = await seed({ name: "Query delete" });
    expect(errorOf(await w.call("DELETE", "/resources/service_client")).code).toBe(441);
    expect((await clientRow(w.core.db, c.id))!.deleted).toBe(false);
    expect((await w.call("DELETE", `/resources/service_client?id=${c.id}`)).status).toBe(200);
    expect((await clientRow(w.core.db, c.id))!.deleted).toBe(true);
  });
});

describe("identity source: at most one active identity-source client per chain", () => {
  it("refuses a second one (POST, PATCH, PUT, re-enabling) with 419 and allows it once the first is disabled or deleted", async () => {
    const chainId = await w.core.createChain("Identity Chain");
    const su = await w.core.admin({ super_user: true }, chainId);
    const call = (method: string, path: string, body?: unknown) => w.call(method, path, body, su.headers);
    const clientsOf = async () => (await allClients(w.core.db)).filter((r) => r.chainId === chainId);

    const first = await call("POST", "/resources/service_client", { name: "IdP", is_identity_source: true });
    expect(first.status).toBe(200);
    const firstId = first.body.results.id as number;

    const before = await clientsOf();
    const second = await call("POST", "/resources/service_client", { name: "IdP 2", is_identity_source: true });
    expect(errorOf(second)).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    expect(second.body.error.description).toContain(`service client ${firstId}`);
    expect(await clientsOf()).toEqual(before);

    const plain = await seed({ name: "Plain" }, chainId);
    expect(errorOf(await call("PATCH", `/resources/service_client/${plain.id}`, { is_identity_source: true })).code).toBe(419);
    expect(errorOf(await call("PUT", `/resources/service_client/${plain.id}`, { name: "Plain", is_identity_source: true })).code).toBe(419);
    expect((await clientRow(w.core.db, plain.id))!.isIdentitySource).toBe(false);
    // the current identity source may be edited, keeping the flag
    expect((await call("PUT", `/resources/service_client/${firstId}`, { name: "IdP renamed", is_identity_source: true })).status).toBe(200);

    // once the first is disabled, another may take the role; re-enabling the first is then refused
    expect((await call("PATCH", `/resources/service_client/${firstId}`, { enabled: false })).status).toBe(200);
    expect((await call("PATCH", `/resources/service_client/${plain.id}`, { is_identity_source: true })).status).toBe(200);
    expect(errorOf(await call("PATCH", `/resources/service_client/${firstId}`, { enabled: true })).code).toBe(419);
    expect((await clientRow(w.core.db, firstId))!.enabled).toBe(false);

    // once the second is deleted, a new one may be created
    expect((await call("DELETE", `/resources/service_client/${plain.id}`)).status).toBe(200);
    expect((await call("POST", "/resources/service_client", { name: "IdP 3", is_identity_source: true })).status).toBe(200);
    const active = (await clientsOf()).filter((r) => r.isIdentitySource && r.enabled && !r.deleted);
    expect(active.map((r) => r.name)).toEqual(["IdP 3"]);
  });

  it("is per chain: another chain's identity source does not count", async () => {
    const a = await w.core.createChain("Chain A");
    const b = await w.core.createChain("Chain B");
    await seed({ name: "IdP A", isIdentitySource: true }, a);
    const suB = await w.core.admin({ super_user: true }, b);
    expect((await w.call("POST", "/resources/service_client", { name: "IdP B", is_identity_source: true }, suB.headers)).status).toBe(200);
  });
});
