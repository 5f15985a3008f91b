/**
 * Set-up shared by the Voucher tests: campaigns and users are inserted directly with drizzle (the
 * campaign and user calls are built elsewhere), vouchers through the repository, so read and list
 * tests do not depend on POST.
 */
import { eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { campaigns, users, vouchers } from "../db/schema.ts";
import { insertVoucher, type NewVoucher } from "./voucher-repository.ts";
import type { VoucherRow } from "./voucher-columns.ts";

let seq = 0;

/** Inserts a live campaign of `chainId`; returns its id. */
export async function seedCampaign(db: CoreDb, chainId: number, values: { title?: string; deleted?: boolean } = {}): Promise<number> {
  const [res] = await db.insert(campaigns).values({ chainId, title: values.title ?? `Campaign ${++seq}`, deleted: values.deleted ?? false });
  return Number(res.insertId);
}

/** Inserts a user (shopper) of `chainId`; returns its id. */
export async function seedUser(db: CoreDb, chainId: number): Promise<number> {
  const [res] = await db.insert(users).values({ chainId, username: `shopper${++seq}@example.com` });
  return Number(res.insertId);
}

/** Inserts a voucher (defaults: a generated basket voucher worth 5, expiring 2027-01-01). */
export async function seedVoucher(
  db: CoreDb,
  values: Partial<NewVoucher> & { chainId: number; campaignId: number; userId: number },
  now: Date,
): Promise<VoucherRow> {
  return insertVoucher(db, { type: "basket", status: "generated", amount: 5, expiryDate: new Date("2027-01-01T00:00:00Z"), ...values }, now);
}

/** The stored row of voucher `id`, deleted or not. */
export async function voucherRow(db: CoreDb, id: number): Promise<VoucherRow | undefined> {
  return (await db.select().from(vouchers).where(eq(vouchers.id, id)))[0];
}

/** Every stored voucher row, in id order (to assert that nothing was written). */
export async function allVoucherRows(db: CoreDb): Promise<VoucherRow[]> {
  return db.select().from(vouchers).orderBy(vouchers.id);
}
