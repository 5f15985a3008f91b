/**
 * Voucher storage (spec, "Voucher", "States and transitions"). Every read and write is confined
 * to one chain and, unless said otherwise, to live (not deleted) vouchers; a deleted voucher is
 * gone for the API (544) and never comes back.
 */
import { and, eq, inArray, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { rowUnchanged } from "../db/row-unchanged.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { listRows } from "../db/resource-rows.ts";
import { vouchers } from "../db/schema.ts";
import { generateVoucherKey } from "./key.ts";
import { voucherColumns, type VoucherColumns, type VoucherRow } from "./voucher-columns.ts";
import type { VoucherVisibility } from "./visibility.ts";
import { runStatement, runTransaction } from "@service/shared/node";

/** What a new voucher needs besides the columns with defaults (the key is generated here). */
export type NewVoucher = Omit<typeof vouchers.$inferInsert, "id" | "key" | "createdDate" | "lastModifiedDate" | "deleted">;

/** A list request in API property names (the F and S properties of the declaration). */
export type VoucherListQuery = ListRequest;

const DUPLICATE_KEY = "vouchers_by_key";
/** Retries after a key collision: with 381 random bits a second one means a broken generator. */
const KEY_ATTEMPTS = 3;

/**
 * Creates a voucher with a fresh key.
 * @param now created_date and last_modified_date
 * @param newKey key generator (tests pass one that collides)
 * @returns the stored row
 * @throws Error when KEY_ATTEMPTS keys in a row collide with stored ones
 */
export async function insertVoucher(db: CoreDb, values: NewVoucher, now: Date, newKey: () => string = generateVoucherKey): Promise<VoucherRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runTransaction(db, async (tx) => {
        const [res] = await tx.insert(vouchers).values({ ...values, key: newKey(), createdDate: now, lastModifiedDate: now });
        const [row] = await tx.select().from(vouchers).where(eq(vouchers.id, Number(res.insertId)));
        return row!;
      });
    } catch (err) {
      if (!isDuplicateKey(err) || attempt >= KEY_ATTEMPTS) throw err;
    }
  }
}

/**
 * The live voucher of chain `chainId` named by `id` or `key`, within `visibility`.
 * @returns the row, or null when there is none the caller may see
 */
export async function findVoucher(
  db: CoreDb,
  chainId: number,
  by: { property: "id" | "key"; value: string | number },
  visibility: VoucherVisibility = {},
): Promise<VoucherRow | null> {
  const match = by.property === "id" ? eq(vouchers.id, Number(by.value)) : eq(vouchers.key, String(by.value));
  const [row] = await db
    .select()
    .from(vouchers)
    .where(and(...live(chainId, visibility), match))
    .limit(1);
  return row ?? null;
}

/**
 * Vouchers of chain `chainId` by id, deleted ones included (a replaced voucher still shows as
 * the parent of its replacement).
 */
export async function findVouchersByIds(db: CoreDb, chainId: number, ids: readonly number[]): Promise<VoucherRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(vouchers)
    .where(and(eq(vouchers.chainId, chainId), inArray(vouchers.id, [...ids])));
}

/**
 * One page of the chain's live vouchers within `visibility`, with equality filters and a sort
 * (the voucher's storage mapping, vouchers/voucher-columns.ts). Ties are broken by id in the same
 * direction, so pages never overlap.
 * @returns the rows and the total count over all pages
 */
export async function listVouchers(
  db: CoreDb,
  chainId: number,
  q: VoucherListQuery,
  visibility: VoucherVisibility = {},
): Promise<{ rows: VoucherRow[]; total: number }> {
  return listRows(db, voucherColumns, live(chainId, visibility), q);
}

/**
 * Updates the live voucher `read` (as a caller read it in this request) with what `plan` makes of
 * it: the rules that depend on the stored state (status order, type fields) are checked by `plan`
 * against the state being replaced, and a ServiceError from it leaves the row untouched.
 *
 * One statement when nothing else wrote in between: the UPDATE applies only while the row still
 * holds `read` (db/row-unchanged.ts), and the row after it is `read` with the changes, so nothing
 * is read again. When the guard matches nothing (a concurrent write, or the voucher is gone), the
 * row is read again under a lock and planned again (begin, select for update, update, commit):
 * of two racing writes each is planned against the state the other left.
 * @param plan stored row -> column changes (undefined values are left unchanged)
 * @param now last_modified_date (whole seconds: what the column stores)
 * @returns the row after the update, or null when no live voucher of the chain has that id any more
 */
export async function updateVoucher(
  db: CoreDb,
  read: VoucherRow,
  plan: (current: VoucherRow) => VoucherColumns,
  now: Date,
): Promise<VoucherRow | null> {
  const first = planned(plan, read, now);
  // Run again on a conflict only: a second run after one that applied matches nothing (the row
  // no longer holds `read`) and the changes are planned again under a lock, below.
  const [res] = await runStatement(() => db.update(vouchers).set(first).where(rowUnchanged(vouchers, read)));
  if (res.affectedRows > 0) return { ...read, ...first };
  return runTransaction(db, async (tx) => {
    const [current] = await tx
      .select()
      .from(vouchers)
      .where(and(...live(read.chainId, {}), eq(vouchers.id, read.id)))
      .for("update");
    if (!current) return null;
    const changes = planned(plan, current, now);
    await tx.update(vouchers).set(changes).where(eq(vouchers.id, current.id));
    return { ...current, ...changes };
  });
}

/** The changes `plan` makes of `row`, without its undefined values, stamped with `now`. */
function planned(plan: (current: VoucherRow) => VoucherColumns, row: VoucherRow, now: Date): VoucherColumns & { lastModifiedDate: Date } {
  const changes = Object.fromEntries(Object.entries(plan(row)).filter(([, v]) => v !== undefined)) as VoucherColumns;
  return { ...changes, lastModifiedDate: now };
}

/**
 * Soft-deletes the live voucher `id` of chain `chainId`; there is no way back (spec, "States and
 * transitions").
 * @param deletedBy admin user id recorded as last_updated_by, or null
 * @returns the deleted row, or null when no live voucher has that id in the chain
 */
export async function deleteVoucher(db: CoreDb, chainId: number, id: number, deletedBy: number | null, now: Date): Promise<VoucherRow | null> {
  return runTransaction(db, async (tx) => {
    const [res] = await tx
      .update(vouchers)
      .set({ deleted: true, lastUpdatedBy: deletedBy, lastModifiedDate: now })
      .where(and(...live(chainId, {}), eq(vouchers.id, id)));
    if (res.affectedRows === 0) return null;
    const [row] = await tx.select().from(vouchers).where(eq(vouchers.id, id));
    return row ?? null;
  });
}

function live(chainId: number, visibility: VoucherVisibility): SQL[] {
  const conditions = [eq(vouchers.chainId, chainId), eq(vouchers.deleted, false)];
  if (visibility.userId !== undefined) conditions.push(eq(vouchers.userId, visibility.userId));
  if (visibility.statuses !== undefined) conditions.push(inArray(vouchers.status, [...visibility.statuses]));
  return conditions;
}

function isDuplicateKey(err: unknown): boolean {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  return code === "ER_DUP_ENTRY" && `${e.message ?? ""} ${e.cause?.message ?? ""}`.includes(DUPLICATE_KEY);
}
