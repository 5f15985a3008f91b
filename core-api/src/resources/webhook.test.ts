/**
 * The webhook resource (handbook, "Events"): super users only; secrets write-only (never rendered
 * at any level, stored sealed); target URLs refused with 419 when not http(s), over 2,048
 * characters, carrying credentials, or pointing (directly or by name) at loopback, private,
 * link-local or unique-local addresses, unless WEBHOOK_ALLOW_PRIVATE; nothing written on a
 * refusal; a campaign's webhooks go with it (delete-campaign).
 */
import { openSecretBox } from "@service/shared/secret-box";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, TEST_SECRET_KEY, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { createCampaign } from "../campaigns/campaign-repository.ts";
import { webhooks } from "../db/schema.ts";
import { openWebhookSecrets } from "../webhooks/webhook-repository.ts";

/** A resolver standing in for DNS: public names, a name that resolves to a private address, one that does not resolve. */
const DNS: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34"],
  "dual.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "rebind.example.com": ["93.184.216.34", "10.0.0.5"],
  localhost: ["127.0.0.1", "::1"],
};
const resolveHost = async (host: string) => {
  const found = DNS[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};

let core: TestCore;
let open: TestCore;
let admin: TestAdmin;
const now = new Date("2026-01-01T00:00:00Z");
beforeAll(async () => {
  core = await startCore({ clock: () => now, resolveHost });
  open = await startCore({ clock: () => now, env: { WEBHOOK_ALLOW_PRIVATE: "true" } });
  admin = await core.admin({ super_user: true });
});
afterAll(async () => {
  await core.close();
  await open.close();
});

const call = (c: TestCore, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
  c.json(path, { method, headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
const post = (body: unknown, headers = admin.headers, c = core) => call(c, "POST", "/resources/webhook", headers, body);
const valid = { event_type: "phone_number_verification", target_url: "https://hooks.example.com/sms", signing_secret: "whsec_0123456789abcdef" };
const allRows = async (c = core) => JSON.stringify(await c.db.select().from(webhooks).orderBy(webhooks.id));

describe("webhook", () => {
  it("creates a webhook of the header chain; secrets are stored sealed and never rendered, at any level", async () => {
    const { status, body } = await post({ ...valid, provider_settings: { sender: "+3197010000001", api_key: "sk_live_abc" } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.results).toEqual({
      active: true,
      campaign: null,
      chain: { id: core.chainId, name: "Test Chain", deleted: false, app: null },
      created_date: "2026-01-01T00:00:00Z",
      deleted: false,
      event_type: "phone_number_verification",
      id: expect.any(Number),
      last_modified_date: "2026-01-01T00:00:00Z",
      last_updated_by: { id: admin.id },
      target_url: "https://hooks.example.com/sms",
    });
    const id = body.results.id;
    for (const level of ["0", "1", "2", "3", "4"]) {
      const one = await call(core, "GET", `/resources/webhook/${id}`, { ...admin.headers, "X-Service-Response-Recursion-Level": level });
      const list = await call(core, "GET", "/resources/webhooks", { ...admin.headers, "X-Service-Response-Recursion-Level": level });
      for (const text of [JSON.stringify(one.body), JSON.stringify(list.body)]) {
        expect(text).not.toMatch(/signing_secret|provider_settings|whsec_|sk_live|3197010000001/);
      }
    }
    const [row] = await core.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row!.signingSecret).toMatch(/^v1\./);
    expect(`${row!.signingSecret}${row!.providerSettings}`).not.toMatch(/whsec_|sk_live|3197010000001/);
    expect(await openWebhookSecrets(await openSecretBox(TEST_SECRET_KEY), row!)).toEqual({
      signingSecret: valid.signing_secret,
      providerSettings: { sender: "+3197010000001", api_key: "sk_live_abc" },
    });
  });

  it("changes, rotates the secret, lists by event type and deletes (soft)", async () => {
    const id = (await post(valid)).body.results.id;
    const patched = await call(core, "PATCH", `/resources/webhook/${id}`, admin.headers, { target_url: "https://dual.example.com/hook", active: false, signing_secret: "whsec_rotated_000000" });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.results).toMatchObject({ target_url: "https://dual.example.com/hook", active: false });
    const [row] = await core.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect((await openWebhookSecrets(await openSecretBox(TEST_SECRET_KEY), row!)).signingSecret).toBe("whsec_rotated_000000");
    const list = await call(core, "GET", "/resources/webhooks?active=false", admin.headers);
    expect(list.body.results.resources.map((r: { id: number }) => r.id)).toContain(id);
    const deleted = await call(core, "DELETE", `/resources/webhook/${id}`, admin.headers);
    expect(deleted.body.results).toMatchObject({ id, deleted: true, active: false });
    expect((await call(core, "GET", `/resources/webhook/${id}`, admin.headers)).status).toBe(404);
  });

  it("refuses every admin below super user, with 544 (reads included)", async () => {
    const writer = await core.admin({ read: true, write: true, delete: true, assign: true });
    const before = await allRows();
    expect((await post(valid, writer.headers)).body.error.code).toBe(544);
    expect((await call(core, "GET", "/resources/webhooks", writer.headers)).body.error.code).toBe(544);
    expect(await allRows()).toBe(before);
  });

  it("refuses target URLs that are not public http(s) URLs of at most 2,048 characters (419); nothing written", async () => {
    const before = await allRows();
    const refused: Array<[string, RegExp]> = [
      ["ftp://hooks.example.com/sms", /http or https/],
      ["javascript:alert(1)", /http or https/],
      ["/relative/path", /absolute URL/],
      ["https://user:pw@hooks.example.com/sms", /user name or password/],
      [`https://hooks.example.com/${"a".repeat(2048 - "https://hooks.example.com/".length + 1)}`, /longer than 2048/],
      ["http://127.0.0.1:8080/hook", /127\.0\.0\.1, a loopback address/],
      ["http://2130706433/hook", /127\.0\.0\.1, a loopback/], // decimal IPv4, normalised by the URL parser
      ["http://localhost/hook", /loopback/],
      ["http://10.1.2.3/hook", /a private address/],
      ["http://192.168.0.10/hook", /a private address/],
      ["http://172.16.5.5/hook", /a private address/],
      ["http://100.64.0.1/hook", /carrier-grade NAT/],
      ["http://169.254.169.254/latest/meta-data", /link-local/],
      ["http://[::1]/hook", /::1, a loopback/],
      ["http://[fe80::1]/hook", /link-local/],
      ["http://[fd12:3456::1]/hook", /unique-local/],
      ["http://[::ffff:10.0.0.1]/hook", /private/],
      ["http://0.0.0.0/hook", /unspecified/],
      ["https://rebind.example.com/hook", /10\.0\.0\.5, a private address/],
      ["https://nowhere.example.com/hook", /does not resolve/],
    ];
    for (const [url, why] of refused) {
      const res = await post({ ...valid, target_url: url });
      expect([res.status, res.body.error?.code], url).toEqual([400, 419]);
      expect(res.body.error.description, url).toMatch(why);
      // and on a change of an existing webhook alike
    }
    expect(await allRows()).toBe(before);
    const id = (await post(valid)).body.results.id;
    const afterCreate = await allRows();
    const res = await call(core, "PATCH", `/resources/webhook/${id}`, admin.headers, { target_url: "http://10.0.0.1/x" });
    expect(res.body.error?.code).toBe(419);
    expect(await allRows()).toBe(afterCreate);
  });

  it("refuses bad secrets, settings, event types and missing fields; nothing written", async () => {
    const before = await allRows();
    const cases: Array<[unknown, number]> = [
      [{ ...valid, signing_secret: "short" }, 419],
      [{ ...valid, provider_settings: { sender: "+31", password: "x" } }, 419],
      [{ ...valid, provider_settings: "sender=+31" }, 419],
      [{ ...valid, event_type: "order_created" }, 419],
      [{ ...valid, deleted: true }, 419],
      [{ event_type: valid.event_type, target_url: valid.target_url }, 441],
      [{ signing_secret: valid.signing_secret, event_type: valid.event_type }, 441],
    ];
    for (const [body, code] of cases) expect((await post(body)).body.error?.code, JSON.stringify(body)).toBe(code);
    expect(await allRows()).toBe(before);
  });

  it("accepts private targets with WEBHOOK_ALLOW_PRIVATE", async () => {
    const super2 = await open.admin({ super_user: true });
    const res = await post({ ...valid, target_url: "http://127.0.0.1:9/hook" }, super2.headers, open);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results.target_url).toBe("http://127.0.0.1:9/hook");
  });

  it("belongs to a campaign of the chain only; deleting the campaign deletes its webhooks", async () => {
    const campaign = await createCampaign(core.db, { chainId: core.chainId, title: "Spring", isActive: false, activeDateFrom: null, activeDateUntil: null }, { adminId: admin.id, endpoint: "internal/add-campaign" }, now);
    const otherChain = await core.createChain("Other");
    const foreign = await createCampaign(core.db, { chainId: otherChain, title: "Foreign", isActive: false, activeDateFrom: null, activeDateUntil: null }, { adminId: null, endpoint: "internal/add-campaign" }, now);
    const before = await allRows();
    expect((await post({ ...valid, campaign: { id: foreign.id } })).body.error?.code).toBe(419);
    expect((await post({ ...valid, campaign: { id: 99_999_999 } })).body.error?.code).toBe(419);
    expect(await allRows()).toBe(before);

    const mine = (await post({ ...valid, campaign: { id: campaign.id } })).body.results;
    expect(mine.campaign).toEqual({ id: campaign.id });
    const chainWide = (await post(valid)).body.results;
    const { "X-Service-Chain-ID": _c, ...session } = (await core.admin({ write: true, campaign: true })).headers;
    const del = await call(core, "DELETE", "/internal/delete-campaign", session, { campaign_id: campaign.id });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const rows = await core.db.select().from(webhooks);
    expect(rows.find((r) => r.id === mine.id)).toMatchObject({ deleted: true, active: false });
    expect(rows.find((r) => r.id === chainWide.id)).toMatchObject({ deleted: false });
    expect((await call(core, "GET", `/resources/webhook/${mine.id}`, admin.headers)).status).toBe(404);
  });
});
