/**
 * Campaigns (minimal home so that change logs arise) and the model change log
 * (spec, "Change log entry").
 */
import { boolean, datetime, index, int, mysqlTable, text, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

export const campaigns = mysqlTable(
  "campaigns",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    title: varchar("title", { length: 255 }).notNull(),
    isActive: boolean("is_active").notNull().default(false),
    activeDateFrom: datetime("active_date_from", { mode: "date" }),
    activeDateUntil: datetime("active_date_until", { mode: "date" }),
    deleted: boolean("deleted").notNull().default(false),
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [index("campaigns_by_chain").on(t.chainId, t.id)],
);

/** One change of one model instance, with its diff as recorded at the time. */
export const modelChangeLogs = mysqlTable(
  "model_change_logs",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** class name of the changed model, for example `Campaign` */
    modelClass: varchar("model_class", { length: 64 }).notNull(),
    modelId: int("model_id").notNull(),
    /** admin user id */
    changedBy: int("changed_by"),
    /** canonical API path of the change, for example `internal/alter-campaign` */
    changeEndpoint: varchar("change_endpoint", { length: 255 }),
    /** JSON `{field: {from, to}}` in the field's native types, never reformatted */
    diff: text("diff").notNull(),
    ...timestamps,
  },
  (t) => [
    index("model_change_logs_by_model_created").on(t.chainId, t.modelClass, t.modelId, t.createdDate),
    index("model_change_logs_by_model_modified").on(t.chainId, t.modelClass, t.modelId, t.lastModifiedDate),
  ],
);
