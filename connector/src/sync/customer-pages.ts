/**
 * Reads the shop's customers for the reconcile in keyset-paged batches (entity_id order), reading
 * only the columns the user info object and the sync need (customers/mapping.ts UserInfoSource).
 * A page is four statements on one connection in one read-only transaction with a consistent
 * snapshot (so a page is one moment of the shop, as one statement would be): the page's customers
 * by primary key range, then our data on them, their addresses and their newsletter subscriptions,
 * each a range of the customers' ids on its own index (no join, no temporary table, no sort), the
 * rows of customers of other websites in that range skipped. Rows come as arrays (mysql2's
 * `rowsAsArray`: no object per row) and are merged by customer id. A pass over 100,000 customers
 * is some tens of pages. The Magento tables' column names are fixed (db/tables/customers.ts), so
 * the statements name them directly and skip drizzle's mapping.
 */
import { inArray, sql } from "drizzle-orm";
import type { PoolConnection, RowDataPacket } from "mysql2/promise";
import type { ConnectorDb, ConnectorQueryable } from "../db/client.ts";
import { customerEntity } from "../db/schema.ts";
import type { AddressRow, CustomerRow, ServiceDataRow, SubscriberRow, UserInfoSource } from "../customers/mapping.ts";
import { readInSnapshot } from "@service/shared/node";

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

// The statements, each with its columns' positions in a row (rowsAsArray).
const CUSTOMERS = `SELECT entity_id, email, firstname, lastname, DATE_FORMAT(dob, '%Y-%m-%d'), gender, default_billing, default_shipping,
       UNIX_TIMESTAMP(created_at), UNIX_TIMESTAMP(updated_at)
  FROM customer_entity WHERE entity_id > ? AND website_id IN (?) ORDER BY entity_id LIMIT ?`;
const C = { id: 0, email: 1, firstname: 2, lastname: 3, dob: 4, gender: 5, defaultBilling: 6, defaultShipping: 7, createdAt: 8, updatedAt: 9 } as const;
const SERVICE = `SELECT customer_id, user_id, member_number, programme_opted_in, printed_mailing_list_subscribed, mailing_list_sub_offered,
       last_hash, UNIX_TIMESTAMP(platform_modified_at)
  FROM service_customer_data WHERE customer_id BETWEEN ? AND ? ORDER BY customer_id`;
const S = { customerId: 0, userId: 1, memberNumber: 2, programmeOptedIn: 3, printed: 4, subOffered: 5, lastHash: 6, platformModifiedAt: 7 } as const;
const ADDRESSES = `SELECT parent_id, entity_id, street, postcode, city, country_id, telephone, UNIX_TIMESTAMP(updated_at)
  FROM customer_address_entity WHERE parent_id BETWEEN ? AND ? ORDER BY parent_id, entity_id`;
const A = { parentId: 0, id: 1, street: 2, postcode: 3, city: 4, countryId: 5, telephone: 6, updatedAt: 7 } as const;
const SUBSCRIBERS = `SELECT customer_id, subscriber_status, UNIX_TIMESTAMP(change_status_at)
  FROM newsletter_subscriber WHERE customer_id BETWEEN ? AND ? ORDER BY customer_id, subscriber_id`;
const N = { customerId: 0, status: 1, changeStatusAt: 2 } as const;

/**
 * The page's four statements and their columns' positions, for the bench's floor of an unchanged
 * pass (bench/floors/reconcile-scan.ts), which replays them on a bare pool.
 */
export const PAGE_STATEMENTS = {
  customers: { sql: CUSTOMERS, columns: C },
  service: { sql: SERVICE, columns: S },
  addresses: { sql: ADDRESSES, columns: A },
  subscribers: { sql: SUBSCRIBERS, columns: N },
} as const;

type Row = unknown[];

/**
 * The next page of the websites' customers after `afterId`, with our data on them, their addresses
 * (in entity_id order) and their first newsletter subscription (the lowest subscriber_id, as the
 * repository reads it): see the module comment.
 * @param websiteIds the websites of a chain (none: an empty page)
 * @param afterId the last entity_id of the previous page (0 for the first)
 * @param limit page size (customers)
 * @returns at most `limit` customers in entity_id order; fewer means this was the last page
 */
export async function loadCustomerPage(
  db: ConnectorDb, websiteIds: number[], afterId: number, limit: number,
): Promise<ScannedCustomer[]> {
  if (websiteIds.length === 0) return [];
  // Straight on a pooled connection: mysql2's own row parser, without drizzle's per-field callback.
  // The snapshot holds across the statements at the server's isolation level, InnoDB's default
  // REPEATABLE READ (the connector never changes it for a session).
  return readInSnapshot(db.$client, (conn) => readPage(conn, websiteIds, afterId, limit));
}

/** loadCustomerPage's four statements on `conn`, inside its transaction. */
async function readPage(conn: PoolConnection, websiteIds: number[], afterId: number, limit: number): Promise<ScannedCustomer[]> {
  const [customers] = await conn.query<RowDataPacket[]>({ sql: CUSTOMERS, rowsAsArray: true }, [afterId, websiteIds, limit]);
  if (customers.length === 0) return [];
  const range = [(customers[0] as Row)[C.id], (customers[customers.length - 1] as Row)[C.id]];
  // Queued at once: the connection sends each as the one before ends.
  const rowsOf = (sql: string) => conn.query<RowDataPacket[]>({ sql, rowsAsArray: true }, range).then(([rows]) => rows);
  const [services, addresses, subscribers] = await Promise.all([rowsOf(SERVICE), rowsOf(ADDRESSES), rowsOf(SUBSCRIBERS)]);
  return mergePage(customers as unknown as Row[], services as unknown as Row[], addresses as unknown as Row[], subscribers as unknown as Row[]);
}

/**
 * The page's customers with their rows of the other three statements (each sorted by customer id,
 * possibly with rows of customers of other websites in between, which are skipped).
 */
function mergePage(customers: Row[], services: Row[], addresses: Row[], subscribers: Row[]): ScannedCustomer[] {
  const page: ScannedCustomer[] = new Array(customers.length);
  let si = 0;
  let ai = 0;
  let ni = 0;
  for (let i = 0; i < customers.length; i++) {
    const c = customers[i]!;
    const id = c[C.id] as number;
    while (si < services.length && (services[si]![S.customerId] as number) < id) si++;
    const s = si < services.length && services[si]![S.customerId] === id ? services[si]! : null;
    const own: ScannedCustomer["addresses"] = [];
    while (ai < addresses.length && (addresses[ai]![A.parentId] as number) <= id) {
      const a = addresses[ai++]!;
      if (a[A.parentId] !== id) continue;
      own.push({
        entityId: a[A.id] as number, street: a[A.street] as string, postcode: a[A.postcode] as string | null,
        city: a[A.city] as string, countryId: a[A.countryId] as string, telephone: a[A.telephone] as string,
        updatedAt: epoch(a[A.updatedAt] as number)!,
      });
    }
    while (ni < subscribers.length && (subscribers[ni]![N.customerId] as number) < id) ni++;
    const n = ni < subscribers.length && subscribers[ni]![N.customerId] === id ? subscribers[ni]! : null;
    page[i] = {
      customer: {
        entityId: id, email: c[C.email] as string | null, firstname: c[C.firstname] as string | null, lastname: c[C.lastname] as string | null,
        dob: c[C.dob] as string | null, gender: c[C.gender] as number | null, defaultBilling: c[C.defaultBilling] as number | null,
        defaultShipping: c[C.defaultShipping] as number | null, createdAt: epoch(c[C.createdAt] as number)!, updatedAt: epoch(c[C.updatedAt] as number)!,
      },
      addresses: own,
      service: s === null ? null : {
        userId: s[S.userId] as number | null, memberNumber: s[S.memberNumber] as string | null,
        programmeOptedIn: flag(s[S.programmeOptedIn] as number | null), printedMailingListSubscribed: flag(s[S.printed] as number | null),
        mailingListSubOffered: flag(s[S.subOffered] as number | null), lastHash: s[S.lastHash] as string | null,
        platformModifiedAt: epoch(s[S.platformModifiedAt] as number | null),
      },
      // the customer's first subscription (lowest subscriber_id), as the repository reads it
      subscriber: n === null ? null : { subscriberStatus: n[N.status] as number, changeStatusAt: epoch(n[N.changeStatusAt] as number | null) },
    };
  }
  return page;
}

/** How many customers the websites hold (the progress bar's total). */
export async function countCustomers(db: ConnectorQueryable, websiteIds: number[]): Promise<number> {
  if (websiteIds.length === 0) return 0;
  const [row] = await db.select({ n: sql<number>`COUNT(*)` }).from(customerEntity).where(inArray(customerEntity.websiteId, websiteIds));
  return Number(row?.n ?? 0);
}
