/**
 * Reads the shop's customers for the reconcile in keyset-paged batches (entity_id order): a page
 * is four queries whatever its size (customers, their addresses, our data on them, their
 * newsletter subscriptions), each reading only the columns the user info object and the sync need
 * (customers/mapping.ts UserInfoSource), so a pass over 100,000 customers is some hundreds of
 * short statements. The Magento tables' column names are fixed (db/tables/customers.ts), so the
 * statements name them directly and the rows skip drizzle's mapping.
 */
import { inArray, sql, type SQL } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { customerEntity } from "../db/schema.ts";
import type { AddressRow, CustomerRow, ServiceDataRow, SubscriberRow, UserInfoSource } from "../customers/mapping.ts";

/** A customer as the reconcile reads it: its user info's columns and when each part last changed. */
export interface ScannedCustomer extends UserInfoSource {
  customer: UserInfoSource["customer"] & Pick<CustomerRow, "createdAt" | "updatedAt">;
  addresses: Array<UserInfoSource["addresses"][number] & Pick<AddressRow, "updatedAt">>;
  service: (NonNullable<UserInfoSource["service"]> & Pick<ServiceDataRow, "userId" | "memberNumber" | "lastHash" | "platformModifiedAt">) | null;
  subscriber: (NonNullable<UserInfoSource["subscriber"]> & Pick<SubscriberRow, "changeStatusAt">) | null;
}

/** A row as the driver returns it (snake_case; booleans as 0/1). */
type Row = Record<string, any>;

const flag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/**
 * A timestamp / datetime as a Date: drizzle's raw rows give `YYYY-MM-DD HH:MM:SS[.fff]` text in
 * the session's zone, which is UTC (db/client.ts); a driver that gives Dates is taken as it is.
 */
const utc = (v: Date | string | null): Date | null =>
  v === null ? null : v instanceof Date ? v : new Date(`${v.replace(" ", "T")}Z`);

/** Runs a raw statement: rows as the driver gives them, without drizzle's per-column mapping (a third of the cost). */
async function rows(db: ConnectorQueryable, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as [Row[]])[0];
}

/**
 * The next page of the websites' customers after `afterId`.
 * @param websiteIds the websites of a chain (none: an empty page)
 * @param afterId the last entity_id of the previous page (0 for the first)
 * @param limit page size (customers)
 * @returns at most `limit` customers in entity_id order; fewer means this was the last page
 */
export async function loadCustomerPage(
  db: ConnectorQueryable, websiteIds: number[], afterId: number, limit: number,
): Promise<ScannedCustomer[]> {
  if (websiteIds.length === 0) return [];
  const customers = await rows(db, sql`
    SELECT entity_id, email, firstname, lastname, DATE_FORMAT(dob, '%Y-%m-%d') AS dob, gender, default_billing,
           default_shipping, created_at, updated_at
      FROM customer_entity
     WHERE entity_id > ${afterId} AND website_id IN (${sql.join(websiteIds.map((id) => sql`${id}`), sql`, `)})
     ORDER BY entity_id LIMIT ${limit}`);
  if (customers.length === 0) return [];
  // The page's id range: the primary key (and parent_id's index) answer it as one range scan; a
  // row of another website's customer in between is simply not matched below.
  const first = customers[0]!.entity_id as number;
  const last = customers[customers.length - 1]!.entity_id as number;
  const [addresses, services, subscribers] = await Promise.all([
    rows(db, sql`
      SELECT entity_id, parent_id, street, postcode, city, country_id, telephone, updated_at
        FROM customer_address_entity WHERE parent_id BETWEEN ${first} AND ${last} ORDER BY entity_id`),
    rows(db, sql`
      SELECT customer_id, user_id, member_number, programme_opted_in, printed_mailing_list_subscribed,
             mailing_list_sub_offered, last_hash, platform_modified_at
        FROM service_customer_data WHERE customer_id BETWEEN ${first} AND ${last}`),
    rows(db, sql`
      SELECT customer_id, subscriber_status, change_status_at
        FROM newsletter_subscriber WHERE customer_id BETWEEN ${first} AND ${last} ORDER BY subscriber_id`),
  ]);
  const addressesOf = new Map<number, ScannedCustomer["addresses"]>();
  for (const a of addresses) {
    const address = {
      entityId: a.entity_id, street: a.street, postcode: a.postcode, city: a.city, countryId: a.country_id,
      telephone: a.telephone, updatedAt: utc(a.updated_at)!,
    };
    const list = addressesOf.get(a.parent_id);
    if (list) list.push(address);
    else addressesOf.set(a.parent_id, [address]);
  }
  const serviceOf = new Map<number, NonNullable<ScannedCustomer["service"]>>();
  for (const r of services) {
    serviceOf.set(r.customer_id, {
      userId: r.user_id, memberNumber: r.member_number, programmeOptedIn: flag(r.programme_opted_in),
      printedMailingListSubscribed: flag(r.printed_mailing_list_subscribed), mailingListSubOffered: flag(r.mailing_list_sub_offered),
      lastHash: r.last_hash, platformModifiedAt: utc(r.platform_modified_at),
    });
  }
  const subscriberOf = new Map<number, NonNullable<ScannedCustomer["subscriber"]>>();
  for (const r of subscribers) {
    if (!subscriberOf.has(r.customer_id)) subscriberOf.set(r.customer_id, { subscriberStatus: r.subscriber_status, changeStatusAt: utc(r.change_status_at) });
  }
  return customers.map((c) => ({
    customer: {
      entityId: c.entity_id, email: c.email, firstname: c.firstname, lastname: c.lastname, dob: c.dob, gender: c.gender,
      defaultBilling: c.default_billing, defaultShipping: c.default_shipping, createdAt: utc(c.created_at)!, updatedAt: utc(c.updated_at)!,
    },
    addresses: addressesOf.get(c.entity_id) ?? [],
    service: serviceOf.get(c.entity_id) ?? null,
    subscriber: subscriberOf.get(c.entity_id) ?? null,
  }));
}

/** How many customers the websites hold (the progress bar's total). */
export async function countCustomers(db: ConnectorQueryable, websiteIds: number[]): Promise<number> {
  if (websiteIds.length === 0) return 0;
  const [row] = await db.select({ n: sql<number>`COUNT(*)` }).from(customerEntity).where(inArray(customerEntity.websiteId, websiteIds));
  return Number(row?.n ?? 0);
}
