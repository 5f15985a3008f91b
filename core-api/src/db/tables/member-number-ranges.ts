/**
 * Member-number ranges of a chain (Resource `member_number_range`; users/member-numbers.ts).
 */
import { bigint, boolean, index, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/**
 * A range `first`..`last` of member numbers; a `generated` range hands out `next_number` and
 * counts up (under a row lock, in the transaction that stores the user), a `custom` range only
 * admits numbers given by the caller. Soft-deleted.
 */
export const memberNumberRanges = mysqlTable(
  "member_number_ranges",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** `generated` or `custom` */
    kind: varchar("kind", { length: 16 }).notNull(),
    first: bigint("first", { mode: "bigint", unsigned: true }).notNull(),
    last: bigint("last", { mode: "bigint", unsigned: true }).notNull(),
    /** the next number a generated range hands out; past `last` when it is used up */
    nextNumber: bigint("next_number", { mode: "bigint", unsigned: true }).notNull(),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [index("member_number_ranges_by_chain").on(t.chainId, t.deleted, t.kind, t.first)],
);
