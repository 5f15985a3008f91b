/**
 * Data access for customers in the Magento-compatible store (handbook, "The Magento-compatible
 * customer store"). Every function takes the database or an open transaction, so a use case can
 * run several of them atomically. No business rules here beyond keeping Magento's references
 * (default_billing, newsletter_subscriber) consistent.
 */
import { and, asc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { ConnectorQueryable } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import {
  customerAddressEntity, customerEntity, directoryCountryRegion, newsletterSubscriber, serviceCustomerData, store, storeGroup, storeWebsite,
} from "../db/schema.ts";
import { randomSalt } from "./magento-password.ts";
import {
  SUBSCRIBER_STATUS, type AddressPatch, type CustomerBundle, type CustomerRow, type ServicePatch,
} from "./mapping.ts";

/** Restricts a customer query to websites (null = all). */
const inWebsites = (websiteIds: number[] | null): SQL | undefined =>
  websiteIds === null ? undefined : inArray(customerEntity.websiteId, websiteIds.length ? websiteIds : [-1]);

/**
 * The bundle's reads by customer id as prepared queries (db/prepared.ts), built once per handle:
 * once per database for the user-info reads (the platform reads a shopper's user info when a
 * webshop login makes or links a member), once per transaction inside an update.
 */
function bundleReads(db: ConnectorQueryable) {
  const id = sql.placeholder("customerId");
  return preparedFor(db, "customer-bundle", () => ({
    customer: db.select().from(customerEntity).where(eq(customerEntity.entityId, id)).prepare(),
    addresses: db.select().from(customerAddressEntity).where(eq(customerAddressEntity.parentId, id)).orderBy(asc(customerAddressEntity.entityId)).prepare(),
    service: db.select().from(serviceCustomerData).where(eq(serviceCustomerData.customerId, id)).prepare(),
    subscriber: db.select().from(newsletterSubscriber)
      .where(eq(newsletterSubscriber.customerId, id)).orderBy(asc(newsletterSubscriber.subscriberId)).limit(1).prepare(),
  }));
}

/** Loads a customer with its addresses, our data and its newsletter subscription; null if absent. */
export async function loadCustomerBundle(db: ConnectorQueryable, customerId: number): Promise<CustomerBundle | null> {
  const reads = bundleReads(db);
  const values = { customerId };
  const [customer] = await reads.customer.execute(values);
  if (!customer) return null;
  const addresses = await reads.addresses.execute(values);
  const [service] = await reads.service.execute(values);
  const [subscriber] = await reads.subscriber.execute(values);
  const regionIds = addresses.map((a) => a.regionId).filter((id): id is number => !!id);
  const regions = regionIds.length
    ? await db.select().from(directoryCountryRegion).where(inArray(directoryCountryRegion.regionId, regionIds))
    : [];
  return {
    customer,
    addresses,
    service: service ?? null,
    subscriber: subscriber ?? null,
    regionCodes: new Map(regions.map((r) => [r.regionId, r.code])),
  };
}

/** Customers with this email (case-insensitive, by collation) in the websites, oldest website first. */
export async function findCustomersByEmail(
  db: ConnectorQueryable, email: string, websiteIds: number[] | null,
): Promise<CustomerRow[]> {
  if (websiteIds === null) {
    return preparedFor(db, "customers-by-email", () => db.select().from(customerEntity)
      .where(eq(customerEntity.email, sql.placeholder("email")))
      .orderBy(asc(customerEntity.websiteId), asc(customerEntity.entityId)).prepare()).execute({ email });
  }
  return preparedFor(db, "customers-by-email-in-websites", () => db.select().from(customerEntity)
    // mysql2 writes an array value as a list: (1, 2)
    .where(and(eq(customerEntity.email, sql.placeholder("email")), sql`${customerEntity.websiteId} in (${sql.placeholder("websiteIds")})`))
    .orderBy(asc(customerEntity.websiteId), asc(customerEntity.entityId)).prepare())
    // an empty list matches nothing (no website has id -1)
    .execute({ email, websiteIds: websiteIds.length ? websiteIds : [-1] });
}

/** The customer with this id if it is in the websites (null = any website). */
export async function findCustomerById(
  db: ConnectorQueryable, customerId: number, websiteIds: number[] | null,
): Promise<CustomerRow | null> {
  const [row] = await db.select().from(customerEntity)
    .where(and(eq(customerEntity.entityId, customerId), inWebsites(websiteIds)));
  return row ?? null;
}

/**
 * The customer with this id, its row locked until the transaction ends (SELECT ... FOR UPDATE):
 * concurrent updates of one customer run one after another. Null if absent.
 */
export async function lockCustomer(db: ConnectorQueryable, customerId: number): Promise<CustomerRow | null> {
  const [row] = await db.select().from(customerEntity).where(eq(customerEntity.entityId, customerId)).for("update");
  return row ?? null;
}

/** The customer linked to a service user id or member number in a chain. */
export async function findCustomerIdByServiceKey(
  db: ConnectorQueryable, chainId: number, key: { userId: number } | { memberNumber: string },
): Promise<number | null> {
  const match = "userId" in key ? eq(serviceCustomerData.userId, key.userId) : eq(serviceCustomerData.memberNumber, key.memberNumber);
  const [row] = await db.select({ id: serviceCustomerData.customerId }).from(serviceCustomerData)
    .where(and(eq(serviceCustomerData.serviceChainId, chainId), match));
  return row?.id ?? null;
}

/**
 * Whether another customer already uses `email`: in the same website, or anywhere when accounts
 * are shared globally (`websiteId` null).
 */
export async function emailTaken(
  db: ConnectorQueryable, email: string, websiteId: number | null, exceptCustomerId?: number,
): Promise<boolean> {
  const [row] = await db.select({ id: customerEntity.entityId }).from(customerEntity).where(and(
    eq(customerEntity.email, email),
    websiteId === null ? undefined : eq(customerEntity.websiteId, websiteId),
    exceptCustomerId === undefined ? undefined : ne(customerEntity.entityId, exceptCustomerId),
  )).limit(1);
  return row !== undefined;
}

/** Inserts a customer_entity row; returns its entity_id. */
export async function insertCustomer(db: ConnectorQueryable, values: typeof customerEntity.$inferInsert): Promise<number> {
  const [row] = await db.insert(customerEntity).values(values).$returningId();
  return row!.entityId;
}

/** Updates columns of a customer_entity row. */
export async function updateCustomer(
  db: ConnectorQueryable, customerId: number, values: Partial<typeof customerEntity.$inferInsert>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db.update(customerEntity).set(values).where(eq(customerEntity.entityId, customerId));
}

/**
 * Region text -> directory region (by code or name within the country), so the address carries a
 * region_id like one entered in the shop; free text otherwise.
 */
async function resolveRegion(
  db: ConnectorQueryable, countryId: string | null, region: string | null,
): Promise<{ region: string | null; regionId: number | null }> {
  if (!region || !countryId) return { region, regionId: null };
  const [row] = await db.select().from(directoryCountryRegion).where(and(
    eq(directoryCountryRegion.countryId, countryId),
    or(eq(directoryCountryRegion.code, region), eq(directoryCountryRegion.defaultName, region)),
  )).limit(1);
  return row ? { region: row.defaultName, regionId: row.regionId } : { region, regionId: null };
}

/**
 * Applies an address patch to the customer's default billing address, creating it (as default
 * billing, and default shipping when there is none) if the customer has no address yet.
 * The address carries the customer's current names, as Magento's checkout would copy them.
 * @param buildPatch gets the current street (null without an address); null = nothing to change;
 *   an empty patch only refreshes the names of an existing address
 */
export async function saveDefaultAddress(
  db: ConnectorQueryable, customer: CustomerRow, buildPatch: (currentStreet: string | null) => AddressPatch | null, now: Date,
): Promise<void> {
  const [current] = customer.defaultBilling
    ? await db.select().from(customerAddressEntity).where(eq(customerAddressEntity.entityId, customer.defaultBilling))
    : [];
  const patch = buildPatch(current?.street ?? null);
  if (!patch || (!current && Object.keys(patch).length === 0)) return;
  const countryId = patch.countryId !== undefined ? patch.countryId : current?.countryId ?? "";
  const regionText = patch.region !== undefined ? patch.region : current?.region ?? null;
  const values = {
    ...(patch.street !== undefined && { street: patch.street }),
    ...(patch.postcode !== undefined && { postcode: patch.postcode }),
    ...(patch.city !== undefined && { city: patch.city }),
    ...(patch.telephone !== undefined && { telephone: patch.telephone }),
    countryId,
    ...(patch.region !== undefined || patch.countryId !== undefined ? await resolveRegion(db, countryId, regionText) : {}),
    // Magento's address names are NOT NULL: a customer without one gets "".
    firstname: customer.firstname ?? "",
    lastname: customer.lastname ?? "",
    updatedAt: now,
  };
  if (current) {
    await db.update(customerAddressEntity).set(values).where(eq(customerAddressEntity.entityId, current.entityId));
    return;
  }
  const [row] = await db.insert(customerAddressEntity)
    .values({ street: "", city: "", telephone: "", ...values, parentId: customer.entityId, createdAt: now }).$returningId();
  await updateCustomer(db, customer.entityId, {
    updatedAt: now,
    defaultBilling: row!.entityId,
    ...(customer.defaultShipping == null && { defaultShipping: row!.entityId }),
  });
}

/**
 * Sets the customer's newsletter subscription: status 1 when subscribed, 3 (unsubscribed) when not.
 * A customer who never subscribed gets no row for "not subscribed", as in Magento.
 */
export async function saveSubscription(
  db: ConnectorQueryable, customer: CustomerRow, subscribed: boolean, now: Date,
): Promise<void> {
  const [row] = await db.select().from(newsletterSubscriber)
    .where(eq(newsletterSubscriber.customerId, customer.entityId)).orderBy(asc(newsletterSubscriber.subscriberId)).limit(1);
  const status = subscribed ? SUBSCRIBER_STATUS.subscribed : SUBSCRIBER_STATUS.unsubscribed;
  if (row) {
    if (row.subscriberStatus === status && row.subscriberEmail === customer.email) return;
    await db.update(newsletterSubscriber)
      .set({ subscriberStatus: status, subscriberEmail: customer.email, changeStatusAt: row.subscriberStatus === status ? row.changeStatusAt : now })
      .where(eq(newsletterSubscriber.subscriberId, row.subscriberId));
  } else if (subscribed) {
    await db.insert(newsletterSubscriber).values({
      storeId: customer.storeId ?? 0,
      customerId: customer.entityId,
      subscriberEmail: customer.email,
      subscriberStatus: status,
      changeStatusAt: now,
      subscriberConfirmCode: randomSalt(32),
    });
  }
}

/** Keeps an existing subscription's email equal to the customer's after an email change. */
export async function syncSubscriberEmail(db: ConnectorQueryable, customerId: number, email: string): Promise<void> {
  await db.update(newsletterSubscriber).set({ subscriberEmail: email }).where(eq(newsletterSubscriber.customerId, customerId));
}

/** Creates or updates the customer's service_customer_data row (only the keys in the patch). */
export async function saveServiceData(
  db: ConnectorQueryable, customerId: number, chainId: number, patch: ServicePatch, now: Date,
): Promise<void> {
  const [row] = await db.select().from(serviceCustomerData).where(eq(serviceCustomerData.customerId, customerId));
  if (row) {
    await db.update(serviceCustomerData).set({ ...patch, serviceChainId: chainId, updatedAt: now })
      .where(eq(serviceCustomerData.customerId, customerId));
  } else {
    await db.insert(serviceCustomerData).values({ ...patch, customerId, serviceChainId: chainId, updatedAt: now });
  }
}

/** The service user id a customer is linked to, if any. */
export async function linkedUserId(db: ConnectorQueryable, customerId: number): Promise<number | null> {
  const [row] = await db.select({ userId: serviceCustomerData.userId }).from(serviceCustomerData)
    .where(eq(serviceCustomerData.customerId, customerId));
  return row?.userId ?? null;
}

/** Stores the customer's last_hash. */
export async function setLastHash(db: ConnectorQueryable, customerId: number, lastHash: string): Promise<void> {
  await db.update(serviceCustomerData).set({ lastHash }).where(eq(serviceCustomerData.customerId, customerId));
}
