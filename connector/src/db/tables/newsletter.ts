/**
 * Magento newsletter subscriptions of customers.
 */
import { datetime, index, int, mysqlTable, smallint, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/** Magento newsletter subscriptions: status 1 subscribed, 2 not active, 3 unsubscribed, 4 unconfirmed. */
export const newsletterSubscriber = mysqlTable(
  "newsletter_subscriber",
  {
    subscriberId: int("subscriber_id", unsigned).autoincrement().primaryKey(),
    storeId: smallint("store_id", unsigned).default(0),
    changeStatusAt: datetime("change_status_at", { mode: "date" }),
    customerId: int("customer_id", unsigned).notNull().default(0),
    subscriberEmail: varchar("subscriber_email", { length: 150 }),
    subscriberStatus: int("subscriber_status").notNull().default(0),
    subscriberConfirmCode: varchar("subscriber_confirm_code", { length: 32 }),
  },
  (t) => [
    index("NEWSLETTER_SUBSCRIBER_CUSTOMER_ID").on(t.customerId),
    index("NEWSLETTER_SUBSCRIBER_SUBSCRIBER_EMAIL").on(t.subscriberEmail),
  ],
);
