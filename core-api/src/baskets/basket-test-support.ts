/**
 * Test support for the basket calls: vouchers seeded straight into the database (a claimed
 * voucher of a member, of any type), and a fingerprint of every row a basket call could write.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { TestCore } from "../../../test/helpers/core.ts";
import { baskets, outbox, vouchers } from "../db/schema.ts";
import { writtenRows } from "../users/user-test-support.ts";

export type VoucherFields = Partial<typeof vouchers.$inferInsert>;

/** A voucher of user `userId` (claimed, no expiry, unlocked unless `fields` say otherwise); its key and id. */
export async function seedVoucher(core: TestCore, userId: number, type: string, fields: VoucherFields = {}): Promise<{ id: number; key: string }> {
  const key = randomBytes(32).toString("hex");
  const [res] = await core.db.insert(vouchers).values({
    chainId: core.chainId, key, type, status: "claimed", campaignId: 1, userId,
    lockedUntil: new Date("2026-01-01T00:00:00Z"), ...fields,
  });
  return { id: Number(res.insertId), key };
}

/** A voucher row by id. */
export async function voucherRow(core: TestCore, id: number) {
  const [row] = await core.db.select().from(vouchers).where(eq(vouchers.id, id));
  return row!;
}

/** Every row a basket call could write (users and baskets, vouchers, outbox), as one text. */
export async function basketWrittenRows(core: TestCore): Promise<string> {
  const [v, o, b] = await Promise.all([
    core.db.select().from(vouchers).orderBy(vouchers.id),
    core.db.select().from(outbox),
    core.db.select().from(baskets).orderBy(baskets.id),
  ]);
  return (await writtenRows(core)) + JSON.stringify([v, o, b], (_k, value: unknown) => (typeof value === "bigint" ? String(value) : value));
}
