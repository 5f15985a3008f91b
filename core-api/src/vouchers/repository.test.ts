import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { insertVoucher, type NewVoucher } from "./repository.ts";
import { allVoucherRows, seedCampaign, seedUser } from "./test-support.ts";

let core: TestCore;
let values: NewVoucher;
const now = new Date("2026-01-01T00:00:00Z");

beforeAll(async () => {
  core = await startCore();
  values = {
    chainId: core.chainId,
    campaignId: await seedCampaign(core.db, core.chainId),
    userId: await seedUser(core.db, core.chainId),
    type: "basket",
    status: "generated",
    amount: 1,
  };
});
afterAll(() => core.close());

describe("insertVoucher", () => {
  it("draws a new key when the first one is already taken", async () => {
    const first = await insertVoucher(core.db, values, now);
    const keys = [first.key, "B".repeat(64)];
    const second = await insertVoucher(core.db, values, now, () => keys.shift()!);
    expect(second.key).toBe("B".repeat(64));
    expect(keys).toEqual([]);
  });

  it("gives up after three colliding keys and writes nothing", async () => {
    const taken = (await allVoucherRows(core.db))[0]!.key;
    const before = await allVoucherRows(core.db);
    let calls = 0;
    await expect(
      insertVoucher(core.db, values, now, () => {
        calls++;
        return taken;
      }),
    ).rejects.toThrow();
    expect(calls).toBe(3);
    expect(await allVoucherRows(core.db)).toEqual(before);
  });
});
