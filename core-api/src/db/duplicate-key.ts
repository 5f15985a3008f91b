/**
 * Recognising a unique-index violation: a uniqueness rule (a live name per chain, a live range
 * per chain) is enforced by its unique index, so two concurrent writes cannot both pass a
 * check-then-insert; the repository turns the violation into the spec error.
 */

/**
 * Whether `err` is MySQL / MariaDB's duplicate-key error (ER_DUP_ENTRY) on unique index `index`.
 * drizzle wraps the driver's error, so both the error and its `cause` are looked at.
 */
export function isDuplicateKey(err: unknown, index: string): boolean {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (!e || typeof e !== "object") return false;
  const code = e.code ?? e.cause?.code;
  return code === "ER_DUP_ENTRY" && `${e.message ?? ""} ${e.cause?.message ?? ""}`.includes(index);
}
