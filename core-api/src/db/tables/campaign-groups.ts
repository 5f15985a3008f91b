/**
 * Campaign groups (spec, "Other records seen in internal call responses": a group lists its
 * `campaign_ids`) and which campaigns each holds. A campaign may sit in several groups; deleting a
 * group removes it and its memberships, never the campaigns (spec, "States and transitions").
 */
import { datetime, index, int, mysqlTable, primaryKey, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/** A named group of a chain's campaigns, with an optional active period of its own. */
export const campaignGroups = mysqlTable(
  "campaign_groups",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    name: varchar("name", { length: 255 }).notNull(),
    activeDateFrom: datetime("active_date_from", { mode: "date" }),
    activeDateUntil: datetime("active_date_until", { mode: "date" }),
    /** admin user id of the last change; null when a privileged token made it */
    lastUpdatedBy: int("last_updated_by"),
    ...timestamps,
  },
  (t) => [index("campaign_groups_by_chain").on(t.chainId, t.id)],
);

/** One campaign in one group (both of chain `chain_id`). */
export const campaignGroupCampaigns = mysqlTable(
  "campaign_group_campaigns",
  {
    campaignGroupId: int("campaign_group_id").notNull(),
    campaignId: int("campaign_id").notNull(),
    chainId: int("chain_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "campaign_group_campaigns_pk", columns: [t.campaignGroupId, t.campaignId] }),
    index("campaign_group_campaigns_by_campaign").on(t.chainId, t.campaignId),
  ],
);
