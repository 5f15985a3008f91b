/**
 * Tags (spec, "Other records seen in internal call responses": a tag is a `value` for models of a
 * `model_class`, for example `user`, in one chain). delete-tag keeps the row: `active` false and
 * `deleted` true (spec, "States and transitions").
 */
import { boolean, index, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** A tag of a chain. */
export const tags = mysqlTable(
  "tags",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** the kind of object the tag is for, for example `user` */
    modelClass: varchar("model_class", { length: 64 }).notNull().default("user"),
    value: varchar("value", { length: 255 }).notNull(),
    active: boolean("active").notNull().default(true),
    deleted: boolean("deleted").notNull().default(false),
    /** admin user id of the last change */
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [index("tags_by_chain_model_class").on(t.chainId, t.modelClass, t.id)],
);
