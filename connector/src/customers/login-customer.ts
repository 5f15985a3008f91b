/**
 * What authenticate reads before it checks a password (customers/authenticate.ts), in one
 * statement after counting the attempt against the client address: the address's counter, the
 * customer with this email, the codes authenticate answers with, and the shop's lockout settings.
 */
import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";
import type { ConnectorQueryable } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { coreConfigData, customerEntity, serviceAuthenticateThrottle as counters, store, storeGroup, storeWebsite } from "../db/schema.ts";
import type { AddressCounter } from "./address-throttle.ts";
import type { CustomerRow } from "./mapping.ts";
import { CONFIG_PATHS } from "./store-scope.ts";

/**
 * What authenticate reads of a customer: the password and lockout columns, the codes it answers
 * with, and the shop's lockout settings (core_config_data, scope `default`) as stored, read in the
 * same statement.
 */
export type LoginCustomer = Pick<CustomerRow, "entityId" | "websiteId" | "storeId" | "isActive" | "passwordHash" | "failuresNum" | "firstFailure" | "lockExpires"> & {
  /** code of the customer's website; null when it has none */
  websiteCode: string | null;
  /** code of the customer's store view, else of its website's default store view; null when neither exists */
  storeCode: string | null;
  /** `customer/password/lockout_failures` as stored; null when not set (store-scope.ts lockoutPolicyOf reads it) */
  lockoutFailuresValue: string | null;
  /** `customer/password/lockout_threshold` as stored; null when not set */
  lockoutThresholdValue: string | null;
};

/** A value of core_config_data at scope `default` (at most one row: its unique key is scope, scope_id, path). */
const defaultConfigValue = (path: string) =>
  sql<string | null>`(SELECT ${coreConfigData.value} FROM ${coreConfigData} WHERE ${coreConfigData.scope} = 'default' AND ${coreConfigData.scopeId} = 0 AND ${coreConfigData.path} = ${path})`;

const customerView = alias(store, "customer_view");
const defaultView = alias(store, "default_view");

/** What readCounterAndLoginCustomer reads: an address's counter and the customer authenticate checks. */
export interface CounterAndLoginCustomer {
  /** the counter of the address, null when there is none */
  counter: AddressCounter | null;
  /** null when no customer has this email in the websites */
  customer: LoginCustomer | null;
}

/**
 * Authenticate's read after counting its attempt from an address, in one statement: the address's
 * counter (address-throttle.ts countAddressAttempt wrote it) and the customer authenticate checks,
 * the first of findCustomersByEmail's order (lowest website id, then entity id) with this email in
 * the websites (null = all), with its website's code, its store view's code (the website's
 * default store view when the customer has none, store_id 0 or null, or it no longer exists) and
 * the shop's lockout settings. The customer is read whatever the counter says; the caller
 * refuses a locked address before it looks at the customer.
 * @param addressHash the counter's key (countAddressAttempt)
 */
export async function readCounterAndLoginCustomer(
  db: ConnectorQueryable, addressHash: string, email: string, websiteIds: number[] | null,
): Promise<CounterAndLoginCustomer> {
  const query = loginCustomerQuery(db, websiteIds !== null);
  // An empty list matches nothing, as inWebsites does.
  const [row] = await query.execute({ addressHash, email, websiteIds: websiteIds?.length ? websiteIds : [-1] });
  if (!row) return { counter: null, customer: null };
  const { counterFailures, counterPending, counterWindowStartedAt, counterLockedUntil, entityId, ...customer } = row;
  return {
    counter: { addressHash, failures: counterFailures, pending: counterPending, windowStartedAt: counterWindowStartedAt, lockedUntil: counterLockedUntil },
    customer: entityId === null ? null : { entityId, ...customer } as LoginCustomer,
  };
}

/**
 * readCounterAndLoginCustomer's statement, in some websites or all, built once per database: the
 * counter's row (at most one: its primary key) joined with the customers of this email, the first
 * one kept.
 */
const loginCustomerQuery = (db: ConnectorQueryable, inSomeWebsites: boolean) =>
  preparedFor(db, `counter-and-login-customer-${inSomeWebsites ? "in-websites" : "anywhere"}`, () => db
    .select({
      counterFailures: counters.failures,
      counterPending: counters.pending,
      counterWindowStartedAt: counters.windowStartedAt,
      counterLockedUntil: counters.lockedUntil,
      entityId: customerEntity.entityId,
      websiteId: customerEntity.websiteId,
      storeId: customerEntity.storeId,
      isActive: customerEntity.isActive,
      passwordHash: customerEntity.passwordHash,
      failuresNum: customerEntity.failuresNum,
      firstFailure: customerEntity.firstFailure,
      lockExpires: customerEntity.lockExpires,
      websiteCode: storeWebsite.code,
      storeCode: sql<string | null>`CASE WHEN ${customerView.storeId} IS NOT NULL THEN ${customerView.code} ELSE ${defaultView.code} END`,
      lockoutFailuresValue: defaultConfigValue(CONFIG_PATHS.lockoutFailures),
      lockoutThresholdValue: defaultConfigValue(CONFIG_PATHS.lockoutThreshold),
    })
    .from(counters)
    .leftJoin(customerEntity, and(
      eq(customerEntity.email, sql.placeholder("email")),
      // mysql2 writes an array value as a list: (1, 2)
      inSomeWebsites ? sql`${customerEntity.websiteId} in (${sql.placeholder("websiteIds")})` : undefined,
    ))
    .leftJoin(storeWebsite, eq(storeWebsite.websiteId, customerEntity.websiteId))
    .leftJoin(customerView, and(ne(customerEntity.storeId, 0), eq(customerView.storeId, customerEntity.storeId)))
    .leftJoin(storeGroup, and(isNull(customerView.storeId), eq(storeGroup.groupId, storeWebsite.defaultGroupId)))
    .leftJoin(defaultView, eq(defaultView.storeId, storeGroup.defaultStoreId))
    .where(eq(counters.addressHash, sql.placeholder("addressHash")))
    .orderBy(asc(customerEntity.websiteId), asc(customerEntity.entityId))
    .limit(1)
    .prepare());
