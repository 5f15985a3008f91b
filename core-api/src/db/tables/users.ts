/**
 * End-users (shoppers) of a chain (spec, "Internal call: add-user"; users/), and the referral
 * links between them.
 */
import { sql } from "drizzle-orm";
import { boolean, char, date, datetime, index, int, mysqlTable, tinyint, uniqueIndex, varchar } from "drizzle-orm/mysql-core";
import { timestamps } from "./columns.ts";

/**
 * A shopper of a chain. Usernames, member numbers, authentication point identifiers and referral
 * codes are unique within a chain (an admin may share a username: admins live in admin_users).
 */
export const users = mysqlTable(
  "users",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** an email address; a dummy one when the user gave none (users/dummy-username.ts) */
    username: varchar("username", { length: 255 }).notNull(),
    /** argon2id PHC string; null for a user who cannot log in with a password */
    passwordHash: varchar("password_hash", { length: 255 }),
    firstName: varchar("first_name", { length: 255 }),
    lastName: varchar("last_name", { length: 255 }),
    /** decimal string from the chain's member-number ranges */
    memberNumber: varchar("member_number", { length: 64 }),
    active: boolean("active").notNull().default(true),
    addressStreetname: varchar("address_streetname", { length: 255 }),
    addressHousenumber: varchar("address_housenumber", { length: 64 }),
    addressHousenumberExtension: varchar("address_housenumber_extension", { length: 64 }),
    addressLine2: varchar("address_line_2", { length: 255 }),
    addressLine3: varchar("address_line_3", { length: 255 }),
    addressPostalcode: varchar("address_postalcode", { length: 20 }),
    addressRegionstate: varchar("address_regionstate", { length: 255 }),
    addressTowncity: varchar("address_towncity", { length: 255 }),
    affiliateCode: varchar("affiliate_code", { length: 64 }),
    /** the user's id in a third-party identity system (the webshop customer id) */
    authenticationPointIdentifier: varchar("authentication_point_identifier", { length: 255 }),
    authenticationPointMultiId: int("authentication_point_multi_id"),
    auxiliaryIdentifier: varchar("auxiliary_identifier", { length: 255 }),
    birthday: date("birthday", { mode: "string" }),
    countryCode: char("country_code", { length: 2 }),
    gender: varchar("gender", { length: 16 }),
    /** businesses.id of the home store */
    homeStoreId: int("home_store_id"),
    /** businesses.id of the signup store */
    signupStoreId: int("signup_store_id"),
    isEmployee: boolean("is_employee").notNull().default(false),
    /** IETF BCP 47 tag */
    language: varchar("language", { length: 35 }),
    mailingListSubOffered: boolean("mailing_list_sub_offered").notNull().default(false),
    mailingListSubscribed: boolean("mailing_list_subscribed").notNull().default(false),
    printedMailingListSubscribed: boolean("printed_mailing_list_subscribed"),
    optInSecondary: boolean("opt_in_secondary"),
    programmeOptedIn: boolean("programme_opted_in").notNull().default(false),
    registered: boolean("registered").notNull().default(true),
    /** E.164 from version 1.6.1, as given by older versions */
    phoneNumber: varchar("phone_number", { length: 32 }),
    /** 0 unchecked, 1 invalid, 2 validated, 3 verified */
    phoneNumberStatus: tinyint("phone_number_status").notNull().default(0),
    phoneNumberDuplicate: boolean("phone_number_duplicate").notNull().default(false),
    /** 8 characters, Crockford base32 */
    referralCode: char("referral_code", { length: 8 }),
    /** set once at creation, never changed */
    signupChannel: varchar("signup_channel", { length: 64 }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("users_unique_username_per_chain").on(t.chainId, t.username),
    uniqueIndex("users_unique_member_number_per_chain").on(t.chainId, t.memberNumber),
    uniqueIndex("users_unique_authentication_point_per_chain").on(t.chainId, t.authenticationPointIdentifier),
    uniqueIndex("users_unique_referral_code_per_chain").on(t.chainId, t.referralCode),
    index("users_by_phone_number").on(t.chainId, t.phoneNumber),
  ],
);

/** Who referred whom (add-user / alter-user `referral_code`): at most one referrer per user. */
export const userReferrals = mysqlTable(
  "user_referrals",
  {
    id: int("id").autoincrement().primaryKey(),
    chainId: int("chain_id").notNull(),
    /** users.id of the referred user */
    userId: int("user_id").notNull(),
    /** users.id of the user whose referral code was given */
    referringUserId: int("referring_user_id").notNull(),
    createdDate: datetime("created_date", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
  },
  (t) => [uniqueIndex("user_referrals_one_per_user").on(t.userId), index("user_referrals_by_referrer").on(t.chainId, t.referringUserId)],
);
