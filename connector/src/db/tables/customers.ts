/**
 * Magento customers with their addresses and groups, and our own data on each customer
 * (service_customer_data: the service user it is linked to and the synced flags).
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, char, date, datetime, index, int, mysqlTable, smallint, text, timestamp, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/** Magento customer groups (1 = General is where new customers go). */
export const customerGroup = mysqlTable("customer_group", {
  customerGroupId: int("customer_group_id", unsigned).autoincrement().primaryKey(),
  customerGroupCode: varchar("customer_group_code", { length: 32 }).notNull(),
  taxClassId: int("tax_class_id", unsigned).notNull().default(3),
});

/**
 * Magento customers: the columns, types, defaults and NOT NULL rules of Magento 2.4's
 * `app/code/Magento/Customer/etc/db_schema.xml` (table `customer_entity`), so the connector can
 * be pointed at a real Magento database (db/magento-schema.test.ts compares them). Its
 * timestamps are MySQL `timestamp`s: stored in UTC, `created_at` defaults to the insert time and
 * `updated_at` follows every change of the row (ON UPDATE CURRENT_TIMESTAMP), as Magento relies on.
 * The foreign keys of the XML are left out (schema.ts: no foreign keys).
 */
export const customerEntity = mysqlTable(
  "customer_entity",
  {
    entityId: int("entity_id", unsigned).autoincrement().primaryKey(),
    websiteId: smallint("website_id", unsigned),
    email: varchar("email", { length: 255 }),
    groupId: smallint("group_id", unsigned).notNull().default(0),
    incrementId: varchar("increment_id", { length: 50 }),
    storeId: smallint("store_id", unsigned).default(0),
    createdAt: timestamp("created_at", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
    updatedAt: timestamp("updated_at", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`).onUpdateNow(),
    isActive: smallint("is_active", unsigned).notNull().default(1),
    disableAutoGroupChange: smallint("disable_auto_group_change", unsigned).notNull().default(0),
    /** name of the store view the customer was created in */
    createdIn: varchar("created_in", { length: 255 }),
    prefix: varchar("prefix", { length: 40 }),
    firstname: varchar("firstname", { length: 255 }),
    middlename: varchar("middlename", { length: 255 }),
    lastname: varchar("lastname", { length: 255 }),
    suffix: varchar("suffix", { length: 40 }),
    /** date of birth, YYYY-MM-DD */
    dob: date("dob", { mode: "string" }),
    /** Magento hash `hash:salt:version[:version...]`, see customers/magento-password.ts */
    passwordHash: varchar("password_hash", { length: 128 }),
    /** reset-password token and when it was made (Magento's own; the connector never sets them) */
    rpToken: varchar("rp_token", { length: 128 }),
    rpTokenCreatedAt: datetime("rp_token_created_at", { mode: "date" }),
    /** customer_address_entity.entity_id of the default billing address */
    defaultBilling: int("default_billing", unsigned),
    defaultShipping: int("default_shipping", unsigned),
    taxvat: varchar("taxvat", { length: 50 }),
    /** confirmation key while the account awaits email confirmation; null once confirmed */
    confirmation: varchar("confirmation", { length: 64 }),
    /** 1 male, 2 female, 3 not specified */
    gender: smallint("gender", unsigned),
    /** failed logins since first_failure (lockout, Magento's Authentication model) */
    failuresNum: smallint("failures_num").default(0),
    firstFailure: timestamp("first_failure", { mode: "date" }),
    /** the account is locked until this moment */
    lockExpires: timestamp("lock_expires", { mode: "date" }),
    /** sessions started before this moment are ended (Magento's own) */
    sessionCutoff: timestamp("session_cutoff", { mode: "date" }),
  },
  (t) => [
    uniqueIndex("CUSTOMER_ENTITY_EMAIL_WEBSITE_ID").on(t.email, t.websiteId),
    index("CUSTOMER_ENTITY_STORE_ID").on(t.storeId),
    index("CUSTOMER_ENTITY_WEBSITE_ID").on(t.websiteId),
    index("CUSTOMER_ENTITY_FIRSTNAME").on(t.firstname),
    index("CUSTOMER_ENTITY_LASTNAME").on(t.lastname),
  ],
);

/**
 * Magento customer addresses, column for column as `customer_address_entity` of Magento 2.4's
 * db_schema.xml (see customerEntity). `street` holds the lines joined by "\n". Magento refuses a
 * NULL city, country_id, firstname, lastname, street or telephone: an unknown value is stored as
 * "" (customers/mapping.ts reads "" back as null).
 */
export const customerAddressEntity = mysqlTable(
  "customer_address_entity",
  {
    entityId: int("entity_id", unsigned).autoincrement().primaryKey(),
    incrementId: varchar("increment_id", { length: 50 }),
    parentId: int("parent_id", unsigned),
    createdAt: timestamp("created_at", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
    updatedAt: timestamp("updated_at", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`).onUpdateNow(),
    isActive: smallint("is_active", unsigned).notNull().default(1),
    city: varchar("city", { length: 255 }).notNull(),
    company: varchar("company", { length: 255 }),
    countryId: varchar("country_id", { length: 255 }).notNull(),
    fax: varchar("fax", { length: 255 }),
    firstname: varchar("firstname", { length: 255 }).notNull(),
    lastname: varchar("lastname", { length: 255 }).notNull(),
    middlename: varchar("middlename", { length: 255 }),
    postcode: varchar("postcode", { length: 255 }),
    prefix: varchar("prefix", { length: 40 }),
    /** free-text region when the country has no region list */
    region: varchar("region", { length: 255 }),
    regionId: int("region_id", unsigned),
    street: text("street").notNull(),
    suffix: varchar("suffix", { length: 40 }),
    telephone: varchar("telephone", { length: 255 }).notNull(),
    vatId: varchar("vat_id", { length: 255 }),
    vatIsValid: int("vat_is_valid", unsigned),
    vatRequestDate: varchar("vat_request_date", { length: 255 }),
    vatRequestId: varchar("vat_request_id", { length: 255 }),
    vatRequestSuccess: int("vat_request_success", unsigned),
  },
  (t) => [index("CUSTOMER_ADDRESS_ENTITY_PARENT_ID").on(t.parentId)],
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
    /**
     * sha256 of the customer's user info object as last synced with the platform, either way
     * (shared/src/node/user-info-hash.ts); null: never synced
     */
    lastHash: char("last_hash", { length: 64 }),
    /**
     * the platform user's last_modified_date as of the last sync (UTC): a later one means the
     * platform changed the user since (sync/reconcile.ts, "newer change wins"); null: unknown
     */
    platformModifiedAt: datetime("platform_modified_at", { mode: "date" }),
    updatedAt: datetime("updated_at", { mode: "date" }).notNull(),
  },
  (t) => [
    uniqueIndex("service_customer_by_chain_user").on(t.serviceChainId, t.userId),
    uniqueIndex("service_customer_by_chain_member_number").on(t.serviceChainId, t.memberNumber),
  ],
);
