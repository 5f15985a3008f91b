/**
 * Drizzle schema of the connector's customer store (`service_webshop`).
 *
 * The Magento tables keep Magento 2's own table, column and index names (handbook, "The
 * Magento-compatible customer store"), so the store reads like a Magento database and the
 * connector could be pointed at one. Our own data lives in `service_*` tables. No foreign keys:
 * the store must run on MySQL-protocol distributed engines (handbook, "Scale beyond one machine");
 * the repository keeps references consistent inside transactions instead.
 * Datetimes are UTC, written from the injected clock.
 */
import {
  bigint,
  boolean,
  char,
  date,
  datetime,
  index,
  int,
  mysqlTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from "drizzle-orm/mysql-core";

const unsigned = { unsigned: true } as const;

/** Magento websites; customers belong to one when account sharing is per website. */
export const storeWebsite = mysqlTable(
  "store_website",
  {
    websiteId: smallint("website_id", unsigned).autoincrement().primaryKey(),
    code: varchar("code", { length: 32 }).notNull(),
    name: varchar("name", { length: 64 }),
    sortOrder: smallint("sort_order", unsigned).notNull().default(0),
    defaultGroupId: smallint("default_group_id", unsigned).notNull().default(0),
    isDefault: smallint("is_default", unsigned).default(0),
  },
  (t) => [uniqueIndex("STORE_WEBSITE_CODE").on(t.code)],
);

/** Magento store groups ("stores" in the admin); each website has a default one. */
export const storeGroup = mysqlTable(
  "store_group",
  {
    groupId: smallint("group_id", unsigned).autoincrement().primaryKey(),
    websiteId: smallint("website_id", unsigned).notNull().default(0),
    name: varchar("name", { length: 255 }).notNull(),
    rootCategoryId: int("root_category_id", unsigned).notNull().default(0),
    defaultStoreId: smallint("default_store_id", unsigned).notNull().default(0),
    code: varchar("code", { length: 32 }),
  },
  (t) => [uniqueIndex("STORE_GROUP_CODE").on(t.code), index("STORE_GROUP_WEBSITE_ID").on(t.websiteId)],
);

/** Magento store views; `store_code` of the connector endpoints names one. */
export const store = mysqlTable(
  "store",
  {
    storeId: smallint("store_id", unsigned).autoincrement().primaryKey(),
    code: varchar("code", { length: 32 }),
    websiteId: smallint("website_id", unsigned).notNull().default(0),
    groupId: smallint("group_id", unsigned).notNull().default(0),
    name: varchar("name", { length: 255 }).notNull(),
    sortOrder: smallint("sort_order", unsigned).notNull().default(0),
    isActive: smallint("is_active", unsigned).notNull().default(0),
  },
  (t) => [
    uniqueIndex("STORE_CODE").on(t.code),
    index("STORE_WEBSITE_ID").on(t.websiteId),
    index("STORE_GROUP_ID").on(t.groupId),
  ],
);

/** Magento customer groups (1 = General is where new customers go). */
export const customerGroup = mysqlTable("customer_group", {
  customerGroupId: int("customer_group_id", unsigned).autoincrement().primaryKey(),
  customerGroupCode: varchar("customer_group_code", { length: 32 }).notNull(),
  taxClassId: int("tax_class_id", unsigned).notNull().default(3),
});

/** Magento customers, with exactly the columns the handbook lists. */
export const customerEntity = mysqlTable(
  "customer_entity",
  {
    entityId: int("entity_id", unsigned).autoincrement().primaryKey(),
    websiteId: smallint("website_id", unsigned),
    email: varchar("email", { length: 255 }),
    groupId: smallint("group_id", unsigned).notNull().default(0),
    storeId: smallint("store_id", unsigned).default(0),
    createdAt: datetime("created_at", { mode: "date" }).notNull(),
    updatedAt: datetime("updated_at", { mode: "date" }).notNull(),
    isActive: smallint("is_active", unsigned).notNull().default(1),
    disableAutoGroupChange: smallint("disable_auto_group_change", unsigned).notNull().default(0),
    /** name of the store view the customer was created in */
    createdIn: varchar("created_in", { length: 255 }),
    firstname: varchar("firstname", { length: 255 }),
    lastname: varchar("lastname", { length: 255 }),
    /** date of birth, YYYY-MM-DD */
    dob: date("dob", { mode: "string" }),
    /** Magento hash `hash:salt:version[:version...]`, see customers/magento-password.ts */
    passwordHash: varchar("password_hash", { length: 128 }),
    /** customer_address_entity.entity_id of the default billing address */
    defaultBilling: int("default_billing", unsigned),
    defaultShipping: int("default_shipping", unsigned),
    /** 1 male, 2 female, 3 not specified */
    gender: smallint("gender", unsigned),
    /** failed logins since first_failure (lockout, Magento's Authentication model) */
    failuresNum: smallint("failures_num").default(0),
    firstFailure: datetime("first_failure", { mode: "date" }),
    /** the account is locked until this moment */
    lockExpires: datetime("lock_expires", { mode: "date" }),
  },
  (t) => [
    uniqueIndex("CUSTOMER_ENTITY_EMAIL_WEBSITE_ID").on(t.email, t.websiteId),
    index("CUSTOMER_ENTITY_WEBSITE_ID").on(t.websiteId),
  ],
);

/** Magento customer addresses; `street` holds the lines joined by "\n". */
export const customerAddressEntity = mysqlTable(
  "customer_address_entity",
  {
    entityId: int("entity_id", unsigned).autoincrement().primaryKey(),
    parentId: int("parent_id", unsigned),
    createdAt: datetime("created_at", { mode: "date" }).notNull(),
    updatedAt: datetime("updated_at", { mode: "date" }).notNull(),
    isActive: smallint("is_active", unsigned).notNull().default(1),
    city: varchar("city", { length: 255 }),
    countryId: varchar("country_id", { length: 255 }),
    firstname: varchar("firstname", { length: 255 }),
    lastname: varchar("lastname", { length: 255 }),
    postcode: varchar("postcode", { length: 255 }),
    /** free-text region when the country has no region list */
    region: varchar("region", { length: 255 }),
    regionId: int("region_id", unsigned),
    street: text("street"),
    telephone: varchar("telephone", { length: 255 }),
  },
  (t) => [index("CUSTOMER_ADDRESS_ENTITY_PARENT_ID").on(t.parentId)],
);

/** Magento's region list per country (empty unless loaded; regions then resolve to ids). */
export const directoryCountryRegion = mysqlTable(
  "directory_country_region",
  {
    regionId: int("region_id", unsigned).autoincrement().primaryKey(),
    countryId: varchar("country_id", { length: 4 }).notNull().default("0"),
    code: varchar("code", { length: 32 }),
    defaultName: varchar("default_name", { length: 255 }),
  },
  (t) => [index("DIRECTORY_COUNTRY_REGION_COUNTRY_ID").on(t.countryId)],
);

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

/**
 * Magento configuration values. Paths the connector reads (scope `default`, scope_id 0):
 * `customer/account_share/scope` (0 global, 1 per website; Magento's default 1),
 * `customer/password/lockout_failures` (default 10), `customer/password/lockout_threshold`
 * (minutes, default 10).
 */
export const coreConfigData = mysqlTable(
  "core_config_data",
  {
    configId: int("config_id", unsigned).autoincrement().primaryKey(),
    scope: varchar("scope", { length: 8 }).notNull().default("default"),
    scopeId: int("scope_id").notNull().default(0),
    path: varchar("path", { length: 255 }).notNull().default("general"),
    value: text("value"),
    updatedAt: datetime("updated_at", { mode: "date" }),
  },
  (t) => [uniqueIndex("CORE_CONFIG_DATA_SCOPE_SCOPE_ID_PATH").on(t.scope, t.scopeId, t.path)],
);

/** Our data on a customer: the service user it is linked to and the synced flags. */
export const serviceCustomerData = mysqlTable(
  "service_customer_data",
  {
    customerId: int("customer_id", unsigned).primaryKey(),
    serviceChainId: int("service_chain_id", unsigned).notNull(),
    /** the service's user id */
    userId: bigint("user_id", { mode: "number", unsigned: true }),
    memberNumber: varchar("member_number", { length: 64 }),
    programmeOptedIn: boolean("programme_opted_in"),
    mailingListSubscribed: boolean("mailing_list_subscribed"),
    printedMailingListSubscribed: boolean("printed_mailing_list_subscribed"),
    mailingListSubOffered: boolean("mailing_list_sub_offered"),
    /** sha256 of the customer's user info object after the last update (shared/src/user-info-hash.ts) */
    lastHash: char("last_hash", { length: 64 }),
    updatedAt: datetime("updated_at", { mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("service_customer_by_chain_user").on(t.serviceChainId, t.userId),
    uniqueIndex("service_customer_by_chain_member_number").on(t.serviceChainId, t.memberNumber),
  ],
);

/** Which Magento websites serve which service chain (a website serves at most one chain). */
export const serviceChainWebsite = mysqlTable(
  "service_chain_website",
  {
    serviceChainId: int("service_chain_id", unsigned).notNull(),
    websiteId: smallint("website_id", unsigned).notNull(),
  },
  (t) => [
    primaryKey({ name: "service_chain_website_pk", columns: [t.serviceChainId, t.websiteId] }),
    uniqueIndex("service_chain_website_by_website").on(t.websiteId),
  ],
);

/** Integration tokens the connector accepts; only the SHA-256 hex of each token is stored. */
export const serviceIntegrationToken = mysqlTable(
  "service_integration_token",
  {
    id: int("id", unsigned).autoincrement().primaryKey(),
    /** lowercase hex SHA-256 of the bearer token */
    tokenHash: char("token_hash", { length: 64 }).notNull(),
    name: varchar("name", { length: 255 }),
    /** revocation is setting this to false (seen by the very next request) */
    isActive: boolean("is_active").notNull().default(true),
    createdAt: datetime("created_at", { mode: "date" }).notNull(),
  },
  (t) => [uniqueIndex("service_integration_token_by_hash").on(t.tokenHash)],
);
