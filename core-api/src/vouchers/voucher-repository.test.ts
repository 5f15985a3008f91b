import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import type { VoucherRow } from "./voucher-columns.ts";
import { insertVoucher, updateVoucher, type NewVoucher } from "./voucher-repository.ts";
import { statusChange } from "./status.ts";
import { allVoucherRows, seedCampaign, seedUser, voucherRow } from "./voucher-test-support.ts";

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

describe("updateVoucher", () => {
  const later = new Date("2026-01-01T01:00:00Z");
  /** A plan that records the rows it was given. */
  const recording = (changes: (row: VoucherRow) => Record<string, unknown>) => {
    const seen: VoucherRow[] = [];
    return { seen, plan: (row: VoucherRow) => (seen.push(row), changes(row)) };
  };

  it("writes in one statement over the row as read, and answers with it without reading again", async () => {
    const read = await insertVoucher(core.db, { ...values, title: "Old" }, now);
    const { seen, plan } = recording(() => ({ title: "New" }));
    core.statements.reset();
    const after = await updateVoucher(core.db, read, plan, later);
    expect(core.statements.statements).toHaveLength(1);
    expect(seen).toEqual([read]);
    expect(after).toEqual({ ...read, title: "New", lastModifiedDate: later });
    expect(await voucherRow(core.db, read.id)).toEqual(after);
  });

  it("plans again on the row another write left, under a lock, and keeps that write", async () => {
    const read = await insertVoucher(core.db, { ...values, description: "abc" }, now);
    // Only the case differs: the column's collation would call it equal, the guard does not.
    await core.db.update(vouchers).set({ description: "ABC" }).where(eq(vouchers.id, read.id));
    const { seen, plan } = recording(() => ({ title: "mine" }));
    core.statements.reset();
    const after = await updateVoucher(core.db, read, plan, later);
    expect(core.statements.statements.map((q) => q.slice(0, 6).toLowerCase())).toEqual(["update", "begin", "select", "update", "insert", "commit"]); // the insert: the transaction's marker
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ description: "ABC" });
    expect(after).toMatchObject({ description: "ABC", title: "mine", lastModifiedDate: later });
    expect(await voucherRow(core.db, read.id)).toEqual(after);
  });

  it("checks the rules again on the state another write left: a voucher redeemed meanwhile stays redeemed", async () => {
    const read = await insertVoucher(core.db, { ...values, status: "generated" }, now);
    await core.db.update(vouchers).set({ status: "redeemed", redeemedDate: now }).where(eq(vouchers.id, read.id));
    const stored = await voucherRow(core.db, read.id);
    const plan = (row: VoucherRow) => statusChange(row.status as "generated", "claimed", later);
    const error = await updateVoucher(core.db, read, plan, later).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).errorName).toBe("parameter_invalid");
    expect(await voucherRow(core.db, read.id)).toEqual(stored);
  });

  it("answers null for a voucher deleted meanwhile, and writes nothing", async () => {
    const read = await insertVoucher(core.db, values, now);
    await core.db.update(vouchers).set({ deleted: true }).where(eq(vouchers.id, read.id));
    const stored = await voucherRow(core.db, read.id);
    expect(await updateVoucher(core.db, read, () => ({ title: "x" }), later)).toBeNull();
    expect(await voucherRow(core.db, read.id)).toEqual(stored);
  });
});
