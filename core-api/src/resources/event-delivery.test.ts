/**
 * Deliveries the outbox still owes, as super users see them (resource `event_delivery`), and the
 * webhook destination's refusals at send time: a deleted or inactive webhook, and a target name
 * that now resolves to a private address (DNS rebinding) fail the delivery without sending it;
 * the failure is listed with its reason, and a retry sends it once the cause is gone.
 */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startCore, TEST_SECRET_KEY, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { outbox } from "../db/schema.ts";
import { enqueue } from "../outbox/enqueue.ts";
import { OutboxWorker } from "../outbox/outbox-worker.ts";

const TARGET = "https://hooks.example.com/events";
let received: string[] = [];
const server = setupServer(
  http.post(TARGET, async ({ request }) => {
    received.push(request.headers.get("idempotency-key")!);
    return HttpResponse.json({});
  }),
);

/** DNS as the worker sees it; a test may turn the name to a private address. */
const dns: Record<string, string[]> = { "hooks.example.com": ["93.184.216.34"] };
const resolveHost = async (h: string) => dns[h] ?? Promise.reject(new Error("ENOTFOUND"));

const now = new Date("2026-01-01T00:00:00Z");
let core: TestCore;
let admin: TestAdmin;
let box: SecretBox;
let worker: OutboxWorker;
let webhookId: number;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  core = await startCore({ clock: () => now, resolveHost });
  admin = await core.admin({ super_user: true });
  box = await openSecretBox(TEST_SECRET_KEY);
  worker = new OutboxWorker({ db: core.db, secretBox: box, clock: () => now, resolveHost });
  const res = await call("POST", "/resources/webhook", { event_type: "phone_number_verification", target_url: TARGET, signing_secret: "whsec_event_delivery_1" });
  webhookId = res.body.results.id;
});
afterAll(async () => {
  server.close();
  await core.close();
});
beforeEach(async () => {
  received = [];
  dns["hooks.example.com"] = ["93.184.216.34"];
  await call("PATCH", `/resources/webhook/${webhookId}`, { active: true });
  await core.db.delete(outbox);
});

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = admin.headers) {
  return core.json(path, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
}
const owe = (chainId = core.chainId) =>
  enqueue(core.db, { chainId, kind: "webhook", targetId: webhookId, eventType: "phone_number_verification", payload: { code: "123456" } }, { secretBox: box, now });

describe("event_delivery", () => {
  it("lists what is owed, never the payload; finds one by its idempotency key", async () => {
    const { id, deliveryId } = await owe();
    const list = await call("GET", "/resources/event_deliveries", undefined, { ...admin.headers, "X-Service-Response-Recursion-Level": "4" });
    expect(list.body.results.resources).toEqual([
      expect.objectContaining({
        id, delivery_id: deliveryId, destination_kind: "webhook", target_id: webhookId, event_type: "phone_number_verification",
        status: "pending", attempts: 0, next_attempt_date: "2026-01-01T00:00:00Z", last_error: null, last_status_code: null, expires_date: null,
        ordering_key: null,
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toMatch(/payload|123456|lease/);
    const byKey = await call("GET", `/resources/event_delivery?delivery_id=${deliveryId}`);
    expect(byKey.body.results.id).toBe(id);
  });

  it("a deleted or inactive webhook fails its deliveries without sending; a retry after re-activating sends once", async () => {
    const { id } = await owe();
    await call("PATCH", `/resources/webhook/${webhookId}`, { active: false });
    expect(await worker.tick()).toBe(1);
    const failed = (await call("GET", `/resources/event_delivery/${id}`)).body.results;
    expect(failed).toMatchObject({ status: "failed", attempts: 1, last_error: `webhook ${webhookId} is inactive` });
    expect(received).toEqual([]);

    await call("PATCH", `/resources/webhook/${webhookId}`, { active: true });
    const retried = await call("PATCH", `/resources/event_delivery/${id}`, { status: "pending" });
    expect(retried.body.results).toMatchObject({ status: "pending", attempts: 0 });
    expect(await worker.tick()).toBe(1);
    expect(received).toHaveLength(1);
    expect((await call("GET", `/resources/event_delivery/${id}`)).status).toBe(404);
  });

  it("a target that now resolves to a private address is refused at send time (DNS rebinding)", async () => {
    const { id } = await owe();
    dns["hooks.example.com"] = ["93.184.216.34", "192.168.1.20"];
    expect(await worker.tick()).toBe(1);
    expect(received).toEqual([]);
    expect((await call("GET", `/resources/event_delivery/${id}`)).body.results).toMatchObject({
      status: "failed",
      last_error: expect.stringMatching(/^refused at send time: target_url points at 192\.168\.1\.20, a private address/),
    });
  });

  it("a name that stops resolving is retried, not given up", async () => {
    const { id } = await owe();
    delete dns["hooks.example.com"];
    await worker.tick();
    expect((await call("GET", `/resources/event_delivery/${id}`)).body.results).toMatchObject({ status: "pending", attempts: 1, last_error: expect.stringContaining("does not resolve") });
  });

  it("drops a delivery (DELETE); refuses status other than pending (419), POST (544) and admins below super user (544)", async () => {
    const { id } = await owe();
    expect((await call("PATCH", `/resources/event_delivery/${id}`, { status: "failed" })).body.error.code).toBe(419);
    expect((await call("PATCH", `/resources/event_delivery/${id}`, { attempts: 0 })).body.error.code).toBe(419);
    expect((await call("POST", "/resources/event_delivery", { status: "pending" })).body.error.code).toBe(544);
    const writer = await core.admin({ read: true, write: true, delete: true, assign: true });
    expect((await call("GET", "/resources/event_deliveries", undefined, writer.headers)).body.error.code).toBe(544);
    expect((await call("DELETE", `/resources/event_delivery/${id}`, undefined, writer.headers)).body.error.code).toBe(544);
    const dropped = await call("DELETE", `/resources/event_delivery/${id}`);
    expect(dropped.body.results).toMatchObject({ id, status: "pending" });
    expect(await core.db.select().from(outbox)).toEqual([]);
    expect(await worker.tick()).toBe(0);
  });

  it("shows a delivery's ordering key and lists the line of one key, in the order it is sent", async () => {
    const key = `authentication_point:${core.chainId}:user:7`;
    const inLine = (n: number) => enqueue(core.db, {
      chainId: core.chainId, kind: "authentication_point", targetId: 7, orderingKey: key, eventType: "user_changed", payload: { n },
    }, { secretBox: box, now });
    const first = await inLine(1);
    await owe();
    const second = await inLine(2);
    const line = await call("GET", `/resources/event_deliveries?ordering_key=${encodeURIComponent(key)}`);
    expect(line.body.results.resources.map((r: { id: number; ordering_key: string }) => [r.id, r.ordering_key])).toEqual([[first.id, key], [second.id, key]]);
    expect(line.body.results.total_count).toBe(2);
  });

  it("shows nothing of another chain", async () => {
    const other = await core.createChain("Other");
    const { id } = await owe(other);
    expect((await call("GET", `/resources/event_delivery/${id}`)).status).toBe(404);
    expect((await call("GET", "/resources/event_deliveries")).body.results.total_count).toBe(0);
  });
});
