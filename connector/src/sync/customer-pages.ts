/**
 * Reads the shop's customers for the reconcile in keyset-paged batches (entity_id order): a page
 * is one statement whatever its size, reading only the columns the user info object and the sync
 * need (customers/mapping.ts UserInfoSource), so a pass over 100,000 customers is some tens of
 * statements. The Magento tables' column names are fixed (db/tables/customers.ts), so the
 * statement names them directly and its rows skip drizzle's mapping.
 */
import { inArray, sql } from "drizzle-orm";
import type { RowDataPacket } from "mysql2";
import type { ConnectorDb, ConnectorQueryable } from "../db/client.ts";
import { customerEntity } from "../db/schema.ts";
import type { AddressRow, CustomerRow, ServiceDataRow, SubscriberRow, UserInfoSource } from "../customers/mapping.ts";

/** A customer as the reconcile reads it: its user info's columns and when each part last changed. */
export interface ScannedCustomer extends UserInfoSource {
  customer: UserInfoSource["customer"] & Pick<CustomerRow, "createdAt" | "updatedAt">;
  addresses: Array<UserInfoSource["addresses"][number] & Pick<AddressRow, "updatedAt">>;
  service: (NonNullable<UserInfoSource["service"]> & Pick<ServiceDataRow, "userId" | "memberNumber" | "lastHash" | "platformModifiedAt">) | null;
  subscriber: (NonNullable<UserInfoSource["subscriber"]> & Pick<SubscriberRow, "changeStatusAt">) | null;
}

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/** Seconds since the epoch (UNIX_TIMESTAMP of a UTC session) as a Date: no text to parse. */
const epoch = (v: number | string | null): Date | null => (v === null ? null : new Date(Number(v) * 1000));

/**
 * The next page of the websites' customers after `afterId`: one statement, the page's customers
 * (a derived table in entity_id order) joined with our data on them, their addresses and their
 * newsletter subscriptions (rows of one customer come together; several addresses or
 * subscriptions give several rows, folded back here).
 * @param websiteIds the websites of a chain (none: an empty page)
 * @param afterId the last entity_id of the previous page (0 for the first)
 * @param limit page size (customers)
 * @returns at most `limit` customers in entity_id order; fewer means this was the last page
 */
export async function loadCustomerPage(
  db: ConnectorDb, websiteIds: number[], afterId: number, limit: number,
): Promise<ScannedCustomer[]> {
  if (websiteIds.length === 0) return [];
  // Straight on the pool: mysql2's own row parser, without drizzle's per-field callback.
  const [joined] = await db.$client.query<RowDataPacket[]>(`
    SELECT c.entity_id, c.email, c.firstname, c.lastname, DATE_FORMAT(c.dob, '%Y-%m-%d') AS dob, c.gender,
           c.default_billing, c.default_shipping, UNIX_TIMESTAMP(c.created_at) AS created_at, UNIX_TIMESTAMP(c.updated_at) AS updated_at,
           s.customer_id AS s_customer_id, s.user_id, s.member_number, s.programme_opted_in,
           s.printed_mailing_list_subscribed, s.mailing_list_sub_offered, s.last_hash,
           UNIX_TIMESTAMP(s.platform_modified_at) AS platform_modified_at,
           a.entity_id AS a_entity_id, a.street, a.postcode, a.city, a.country_id, a.telephone, UNIX_TIMESTAMP(a.updated_at) AS a_updated_at,
           n.subscriber_id, n.subscriber_status, UNIX_TIMESTAMP(n.change_status_at) AS change_status_at
      FROM (SELECT entity_id, email, firstname, lastname, dob, gender, default_billing, default_shipping, created_at, updated_at
              FROM customer_entity
             WHERE entity_id > ? AND website_id IN (?)
             ORDER BY entity_id LIMIT ?) AS c
      LEFT JOIN service_customer_data AS s ON s.customer_id = c.entity_id
      LEFT JOIN customer_address_entity AS a ON a.parent_id = c.entity_id
      LEFT JOIN newsletter_subscriber AS n ON n.customer_id = c.entity_id
     ORDER BY c.entity_id, a.entity_id, n.subscriber_id`, [afterId, websiteIds, limit]);
  const page: ScannedCustomer[] = [];
  let current: ScannedCustomer | undefined;
  for (const r of joined) {
    if (current === undefined || current.customer.entityId !== r.entity_id) {
      current = {
        customer: {
          entityId: r.entity_id, email: r.email, firstname: r.firstname, lastname: r.lastname, dob: r.dob, gender: r.gender,
          defaultBilling: r.default_billing, defaultShipping: r.default_shipping, createdAt: epoch(r.created_at)!, updatedAt: epoch(r.updated_at)!,
        },
        addresses: [],
        service: r.s_customer_id === null ? null : {
          userId: r.user_id, memberNumber: r.member_number, programmeOptedIn: flag(r.programme_opted_in),
          printedMailingListSubscribed: flag(r.printed_mailing_list_subscribed), mailingListSubOffered: flag(r.mailing_list_sub_offered),
          lastHash: r.last_hash, platformModifiedAt: epoch(r.platform_modified_at),
        },
        // the customer's first subscription (lowest subscriber_id), as the repository reads it
        subscriber: r.subscriber_id === null ? null : { subscriberStatus: r.subscriber_status, changeStatusAt: epoch(r.change_status_at) },
      };
      page.push(current);
    }
    const addresses = current.addresses;
    if (r.a_entity_id !== null && addresses[addresses.length - 1]?.entityId !== r.a_entity_id) {
      addresses.push({
        entityId: r.a_entity_id, street: r.street, postcode: r.postcode, city: r.city, countryId: r.country_id,
        telephone: r.telephone, updatedAt: epoch(r.a_updated_at)!,
      });
    }
  }
  return page;
}

/** How many customers the websites hold (the progress bar's total). */
export async function countCustomers(db: ConnectorQueryable, websiteIds: number[]): Promise<number> {
  if (websiteIds.length === 0) return 0;
  const [row] = await db.select({ n: sql<number>`COUNT(*)` }).from(customerEntity).where(inArray(customerEntity.websiteId, websiteIds));
  return Number(row?.n ?? 0);
}
