import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VoucherRow } from "../vouchers/voucher-columns.ts";
import { allVoucherRows, seedCampaign, seedUser, seedVoucher, voucherRow } from "../vouchers/voucher-test-support.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

let w: ResourcesWorld;
let campaign: number;
let user: number;
let mine: VoucherRow;

beforeAll(async () => {
  w = await startResourcesWorld();
  campaign = await seedCampaign(w.core.db, w.core.chainId);
  user = await seedUser(w.core.db, w.core.chainId);
  mine = await seedVoucher(w.core.db, { chainId: w.core.chainId, campaignId: campaign, userId: user, title: "Guarded" }, w.now());
});
afterAll(() => w.core.close());

const NOT_FOUND = { status: 404, code: 544, name: "resource_not_found" };
const body = () => ({ type: "basket", status: "generated", campaign: { id: campaign }, user: { id: user }, expiry_date: null, amount: 1 });

describe("Voucher access (admin levels on the header chain)", () => {
  it("answers 6 no_valid_session without a session, on every method", async () => {
    const bare = { "X-Service-Chain-ID": String(w.core.chainId) };
    for (const [method, path] of [
      ["GET", `/resources/voucher/${mine.id}`],
      ["GET", "/resources/vouchers"],
      ["POST", "/resources/voucher"],
      ["PATCH", `/resources/voucher/${mine.id}`],
      ["DELETE", `/resources/voucher?key=${mine.key}`],
    ] as const) {
      const res = await w.core.json(path, { method, headers: bare });
      expect({ method, path, ...errorOf(res) }).toEqual({ method, path, status: 401, code: 6, name: "no_valid_session" });
    }
  });

  it("a read-only admin reads, but every write answers 544 and writes nothing", async () => {
    const h = (await w.core.admin({ read: true })).headers;
    expect((await w.call("GET", `/resources/voucher/${mine.id}`, undefined, h)).status).toBe(200);
    expect((await w.call("GET", "/resources/vouchers", undefined, h)).body.results.total_count).toBe(1);
    const before = await allVoucherRows(w.core.db);
    expect(errorOf(await w.call("POST", "/resources/voucher", body(), h))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("PATCH", `/resources/voucher/${mine.id}`, { status: "claimed" }, h))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("PUT", `/resources/voucher/${mine.id}`, { status: "claimed", expiry_date: null, amount: 1 }, h))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("DELETE", `/resources/voucher/${mine.id}`, undefined, h))).toEqual(NOT_FOUND);
    expect(await allVoucherRows(w.core.db)).toEqual(before);
  });

  it("write access does not include delete; delete access does not include write or read", async () => {
    const writer = (await w.core.admin({ read: true, write: true })).headers;
    expect((await w.call("PATCH", `/resources/voucher/${mine.id}`, { notes: "w" }, writer)).status).toBe(200);
    expect(errorOf(await w.call("DELETE", `/resources/voucher/${mine.id}`, undefined, writer))).toEqual(NOT_FOUND);
    const deleter = (await w.core.admin({ delete: true })).headers;
    expect(errorOf(await w.call("PATCH", `/resources/voucher/${mine.id}`, { notes: "d" }, deleter))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("GET", `/resources/voucher/${mine.id}`, undefined, deleter))).toEqual(NOT_FOUND);
    expect(await voucherRow(w.core.db, mine.id)).toMatchObject({ notes: "w", deleted: false });
  });

  it("an admin of another chain gets 544 for this chain's vouchers, by id, key or list, and cannot create into it", async () => {
    const other = await w.core.createChain("Rival");
    const rival = (await w.core.admin({ super_user: true }, other)).headers;
    const before = await allVoucherRows(w.core.db);
    for (const [method, path] of [
      ["GET", `/resources/voucher/${mine.id}`],
      ["GET", `/resources/voucher?key=${mine.key}`],
      ["PATCH", `/resources/voucher/${mine.id}`],
      ["DELETE", `/resources/voucher?key=${mine.key}`],
    ] as const) {
      const res = await w.call(method, path, method === "PATCH" ? { title: "Taken" } : undefined, rival);
      expect({ method, path, ...errorOf(res) }).toEqual({ method, path, ...NOT_FOUND });
    }
    expect((await w.call("GET", "/resources/vouchers", undefined, rival)).body.results.total_count).toBe(0);
    // Their own chain in the header: this chain's campaign and user are not theirs to use.
    expect(errorOf(await w.call("POST", "/resources/voucher", body(), rival))).toEqual({ status: 400, code: 419, name: "parameter_invalid" });
    // This chain in the header: no rights there.
    const spoofed = { ...rival, "X-Service-Chain-ID": String(w.core.chainId) };
    expect(errorOf(await w.call("GET", `/resources/voucher/${mine.id}`, undefined, spoofed))).toEqual(NOT_FOUND);
    expect(errorOf(await w.call("POST", "/resources/voucher", body(), spoofed))).toEqual(NOT_FOUND);
    expect(await allVoucherRows(w.core.db)).toEqual(before);
  });
});
