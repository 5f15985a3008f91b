/**
 * Reads the shop's customers for the reconcile in keyset-paged batches (entity_id order): a page
 * is four queries whatever its size (customers, their addresses, our data on them, their
 * newsletter subscriptions), so a pass over 100,000 customers costs a few hundred statements.
 */
import { and, asc, gt, inArray, sql } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { customerAddressEntity, customerEntity, newsletterSubscriber, serviceCustomerData } from "../db/schema.ts";
import type { AddressRow, CustomerBundle, ServiceDataRow, SubscriberRow } from "../customers/mapping.ts";

/**
 * The next page of the websites' customers after `afterId`, each with everything its user info
 * object is made of (CustomerBundle; `regionCodes` is left empty: the user info has no region code).
 * @param websiteIds the websites of a chain (none: an empty page)
 * @param afterId the last entity_id of the previous page (0 for the first)
 * @param limit page size (customers)
 * @returns at most `limit` bundles in entity_id order; fewer means this was the last page
 */
export async function loadCustomerPage(
  db: ConnectorQueryable, websiteIds: number[], afterId: number, limit: number,
): Promise<CustomerBundle[]> {
  if (websiteIds.length === 0) return [];
  const customers = await db.select().from(customerEntity)
    .where(and(gt(customerEntity.entityId, afterId), inArray(customerEntity.websiteId, websiteIds)))
    .orderBy(asc(customerEntity.entityId)).limit(limit);
  if (customers.length === 0) return [];
  const ids = customers.map((c) => c.entityId);
  const [addresses, services, subscribers] = await Promise.all([
    db.select().from(customerAddressEntity).where(inArray(customerAddressEntity.parentId, ids))
      .orderBy(asc(customerAddressEntity.entityId)),
    db.select().from(serviceCustomerData).where(inArray(serviceCustomerData.customerId, ids)),
    db.select().from(newsletterSubscriber).where(inArray(newsletterSubscriber.customerId, ids))
      .orderBy(asc(newsletterSubscriber.subscriberId)),
  ]);
  const addressesOf = new Map<number, AddressRow[]>();
  for (const a of addresses) {
    const list = addressesOf.get(a.parentId!) ?? [];
    list.push(a);
    addressesOf.set(a.parentId!, list);
  }
  const serviceOf = new Map<number, ServiceDataRow>(services.map((s) => [s.customerId, s]));
  const subscriberOf = new Map<number, SubscriberRow>();
  for (const s of subscribers) if (!subscriberOf.has(s.customerId)) subscriberOf.set(s.customerId, s);
  return customers.map((customer) => ({
    customer,
    addresses: addressesOf.get(customer.entityId) ?? [],
    service: serviceOf.get(customer.entityId) ?? null,
    subscriber: subscriberOf.get(customer.entityId) ?? null,
    regionCodes: new Map(),
  }));
}

/** How many customers the websites hold (the progress bar's total). */
export async function countCustomers(db: ConnectorQueryable, websiteIds: number[]): Promise<number> {
  if (websiteIds.length === 0) return 0;
  const [row] = await db.select({ n: sql<number>`COUNT(*)` }).from(customerEntity).where(inArray(customerEntity.websiteId, websiteIds));
  return Number(row?.n ?? 0);
}
