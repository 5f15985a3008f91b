/**
 * Magento customers with their addresses and groups, and our own data on each customer
 * (service_customer_data: the service user it is linked to and the synced flags).
 */
import { bigint, boolean, char, date, datetime, index, int, mysqlTable, smallint, text, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

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
