/**
 * user_info <-> Magento customer mapping (spec, "Webshop connector endpoints"). Pure functions:
 * rows in, objects out, no I/O.
 *
 * Rules:
 *  - gender: male 1, female 2, every other add-user gender 3 ("not specified" in Magento, as it
 *    has no finer values); back: 1 male, 2 female, 3 "other", none null.
 *  - birthday <-> dob `YYYY-MM-DD`; a date-time with an offset is converted to its UTC date
 *    (add-user does the same).
 *  - address: Magento street lines are [streetname, housenumber, housenumber_extension]
 *    (the usual Dutch / German three-line set-up), stored joined by "\n"; empty trailing lines are
 *    dropped. address_line_2 / address_line_3 have no line of their own in that layout and are
 *    not stored. phone_number is the address telephone; the address is the default billing one.
 *  - A user_info key that is absent leaves the value unchanged; null or "" clears it.
 * The webshop customer object `update` answers with is customer-object.ts.
 */
import type { UserGender, UserInfoInput, UserInfoObject } from "@service/shared/connector";
import type {
  customerAddressEntity, customerEntity, newsletterSubscriber, serviceCustomerData,
} from "../db/schema.ts";

export type CustomerRow = typeof customerEntity.$inferSelect;
export type AddressRow = typeof customerAddressEntity.$inferSelect;
export type ServiceDataRow = typeof serviceCustomerData.$inferSelect;
export type SubscriberRow = typeof newsletterSubscriber.$inferSelect;

/** Everything stored about one customer, as the repository loads it. */
export interface CustomerBundle {
  customer: CustomerRow;
  addresses: AddressRow[];
  service: ServiceDataRow | null;
  subscriber: SubscriberRow | null;
  /** directory_country_region codes of the addresses' region ids */
  regionCodes: Map<number, string | null>;
}

/** Magento newsletter_subscriber.subscriber_status values. */
export const SUBSCRIBER_STATUS = { subscribed: 1, notActive: 2, unsubscribed: 3, unconfirmed: 4 } as const;

const blankToNull = (v: string | null | undefined): string | null | undefined =>
  v === undefined ? undefined : v === null || v.trim() === "" ? null : v.trim();

/** user_info gender -> customer_entity.gender (null/"" clears). */
export function genderToMagento(gender: UserGender | "" | null): number | null {
  if (!gender) return null;
  return gender === "male" ? 1 : gender === "female" ? 2 : 3;
}

/** customer_entity.gender -> user info gender. */
export function genderFromMagento(gender: number | null): UserGender | null {
  return gender === 1 ? "male" : gender === 2 ? "female" : gender === 3 ? "other" : null;
}

/**
 * user_info birthday -> dob `YYYY-MM-DD`.
 * @returns null for null/"", undefined for an impossible date (2023-02-30)
 */
export function birthdayToDob(birthday: string | null): string | null | undefined {
  if (!birthday) return null;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(birthday);
  const parsed = new Date(dateOnly ? `${birthday}T00:00:00Z` : birthday.replace(" ", "T"));
  if (Number.isNaN(parsed.getTime())) return undefined;
  const iso = parsed.toISOString().slice(0, 10);
  // Date rolls 2023-02-30 over to March; a real date survives the round trip.
  return dateOnly && iso !== birthday ? undefined : iso;
}

/** Splits a stored street into the user info parts. */
export function splitStreet(street: string | null): {
  streetname: string | null; housenumber: string | null; extension: string | null;
} {
  // No closure per call: the reconcile splits every customer's street on every pass.
  const lines = street ? street.split("\n") : [];
  return { streetname: blankToNull(lines[0]) ?? null, housenumber: blankToNull(lines[1]) ?? null, extension: blankToNull(lines[2]) ?? null };
}

/**
 * New street lines after applying the user_info street keys to the current lines.
 * @returns undefined when user_info has no street key
 */
export function mergeStreetLines(current: string | null, info: UserInfoInput): string[] | undefined {
  const keys = [info.address_streetname, info.address_housenumber, info.address_housenumber_extension];
  if (keys.every((k) => k === undefined)) return undefined;
  const old = splitStreet(current);
  const lines = [old.streetname, old.housenumber, old.extension].map((v, i) => {
    const given = keys[i];
    return (given === undefined ? v : blankToNull(given)) ?? "";
  });
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** customer_entity columns set by a user_info (only the keys present). */
export interface CustomerPatch {
  email?: string;
  firstname?: string | null;
  lastname?: string | null;
  dob?: string | null;
  gender?: number | null;
}

/** Maps the customer_entity part of a user_info (birthday must already be valid). */
export function customerPatchFromUserInfo(info: UserInfoInput): CustomerPatch {
  const patch: CustomerPatch = {};
  const email = blankToNull(info.username);
  if (email) patch.email = email;
  if (info.first_name !== undefined) patch.firstname = blankToNull(info.first_name) ?? null;
  if (info.last_name !== undefined) patch.lastname = blankToNull(info.last_name) ?? null;
  if (info.birthday !== undefined) patch.dob = birthdayToDob(info.birthday) ?? null;
  if (info.gender !== undefined) patch.gender = genderToMagento(info.gender);
  return patch;
}

/**
 * customer_address_entity columns set by a user_info (only the keys present). City, country and
 * telephone are NOT NULL in Magento: a cleared one is "".
 */
export interface AddressPatch {
  street?: string;
  postcode?: string | null;
  city?: string;
  countryId?: string;
  telephone?: string;
  /** region text as given; the repository resolves it to a region_id when it can */
  region?: string | null;
}

/**
 * Maps the address part of a user_info.
 * @param currentStreet the street of the address being updated (null for a new one)
 * @returns null when user_info has no address key at all
 */
export function addressPatchFromUserInfo(info: UserInfoInput, currentStreet: string | null): AddressPatch | null {
  const patch: AddressPatch = {};
  const lines = mergeStreetLines(currentStreet, info);
  if (lines) patch.street = lines.join("\n");
  if (info.address_postalcode !== undefined) patch.postcode = blankToNull(info.address_postalcode) ?? null;
  if (info.address_towncity !== undefined) patch.city = blankToNull(info.address_towncity) ?? "";
  if (info.country_code !== undefined) patch.countryId = blankToNull(info.country_code) ?? "";
  if (info.phone_number !== undefined) patch.telephone = blankToNull(info.phone_number) ?? "";
  if (info.address_regionstate !== undefined) patch.region = blankToNull(info.address_regionstate) ?? null;
  return Object.keys(patch).length === 0 ? null : patch;
}

/** service_customer_data columns set by a user_info (only the keys present). */
export interface ServicePatch {
  userId?: number;
  memberNumber?: string;
  programmeOptedIn?: boolean | null;
  mailingListSubscribed?: boolean | null;
  printedMailingListSubscribed?: boolean | null;
  mailingListSubOffered?: boolean | null;
  /** the platform user's last_modified_date the user_info carries */
  platformModifiedAt?: Date;
}

/**
 * A platform datetime (`YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DDTHH:MM:SSZ`, both UTC, as get-user's
 * last_modified_date in every API version) as a Date; null for anything else.
 */
export function parsePlatformDateTime(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const m = /^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)Z?$/.exec(value.trim());
  if (!m) return null;
  const date = new Date(`${m[1]}T${m[2]}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** user_id of a user_info: `user_id`, else get-user's `id`. */
export function userIdOf(info: UserInfoInput): number | null {
  return info.user_id ?? info.id ?? null;
}

/**
 * Maps our own data of a user_info. Identifiers are only ever set, never cleared: an empty
 * user_id / member_number means "unknown to the sender", not "unlink".
 */
export function servicePatchFromUserInfo(info: UserInfoInput): ServicePatch {
  const patch: ServicePatch = {};
  const userId = userIdOf(info);
  if (userId !== null) patch.userId = userId;
  const member = blankToNull(info.member_number);
  if (member) patch.memberNumber = member;
  const pick = (nested: boolean | null | undefined, flat: boolean | null | undefined) => (nested !== undefined ? nested : flat);
  const opted = pick(info.opt_in_programme?.programme_opted_in, info.programme_opted_in);
  if (opted !== undefined) patch.programmeOptedIn = opted;
  const sub = pick(info.mailing_list?.mailing_list_subscribed, info.mailing_list_subscribed);
  if (sub !== undefined) patch.mailingListSubscribed = sub;
  const printed = pick(info.mailing_list?.printed_mailing_list_subscribed, info.printed_mailing_list_subscribed);
  if (printed !== undefined) patch.printedMailingListSubscribed = printed;
  const offered = pick(info.mailing_list?.mailing_list_sub_offered, info.mailing_list_sub_offered);
  if (offered !== undefined) patch.mailingListSubOffered = offered;
  const modified = parsePlatformDateTime(info.last_modified_date);
  if (modified) patch.platformModifiedAt = modified;
  return patch;
}

/**
 * The columns the user info object is made of (a CustomerBundle has them all): what the reconcile
 * reads for each customer (sync/customer-pages.ts), and nothing more.
 */
export interface UserInfoSource {
  customer: Pick<CustomerRow, "entityId" | "email" | "firstname" | "lastname" | "dob" | "gender" | "defaultBilling" | "defaultShipping">;
  addresses: Array<Pick<AddressRow, "entityId" | "street" | "postcode" | "city" | "countryId" | "telephone">>;
  service: Pick<ServiceDataRow, "programmeOptedIn" | "printedMailingListSubscribed" | "mailingListSubOffered"> | null;
  subscriber: Pick<SubscriberRow, "subscriberStatus"> | null;
}

/** The address user info is read from: default billing, else default shipping, else the first. */
export function primaryAddress<A extends { entityId: number }>(
  bundle: { customer: Pick<CustomerRow, "defaultBilling" | "defaultShipping">; addresses: A[] },
): A | undefined {
  const { customer, addresses } = bundle;
  // Loops, not find() with closures: the reconcile asks for every customer on every pass.
  for (const a of addresses) if (a.entityId === customer.defaultBilling) return a;
  for (const a of addresses) if (a.entityId === customer.defaultShipping) return a;
  return addresses[0];
}

/**
 * The latest moment the shop changed what the customer's user info is made of: `updated_at` of
 * the customer row and of the address user info is read from, the subscription's last status
 * change. The shop's side of "the newer change wins" (handbook, "Sync between the webshop and the
 * platform").
 */
export function lastShopChange(bundle: {
  customer: Pick<CustomerRow, "defaultBilling" | "defaultShipping" | "updatedAt">;
  addresses: Array<Pick<AddressRow, "entityId" | "updatedAt">>;
  subscriber: Pick<SubscriberRow, "changeStatusAt"> | null;
}): Date {
  const times = [bundle.customer.updatedAt, primaryAddress(bundle)?.updatedAt, bundle.subscriber?.changeStatusAt]
    .filter((d): d is Date => d instanceof Date);
  return new Date(Math.max(...times.map((d) => d.getTime())));
}

/** Whether the customer's newsletter subscription is active. */
export function isSubscribed(bundle: { subscriber: Pick<SubscriberRow, "subscriberStatus"> | null }): boolean {
  return bundle.subscriber?.subscriberStatus === SUBSCRIBER_STATUS.subscribed;
}

/** A stored address value as user info: "" (Magento's "none" in its NOT NULL columns) is null. */
const storedText = (v: string | null | undefined): string | null => blankToNull(v) ?? null;

/**
 * The user info object of the reads (spec's keys exactly). Also the input of `last_hash`
 * (update-customer.ts, sync/reconcile.ts): whatever the shop changes in it is a change to sync.
 */
export function userInfoObject(bundle: UserInfoSource): UserInfoObject {
  const { customer, service } = bundle;
  const address = primaryAddress(bundle);
  const street = splitStreet(address?.street ?? null);
  return {
    first_name: customer.firstname,
    last_name: customer.lastname,
    birthday: customer.dob,
    username: customer.email ?? "",
    webshop_customer_id: customer.entityId,
    gender: genderFromMagento(customer.gender),
    printed_mailing_list_subscribed: service?.printedMailingListSubscribed ?? false,
    mailing_list_subscribed: isSubscribed(bundle),
    mailing_list_sub_offered: service?.mailingListSubOffered ?? false,
    programme_opted_in: service?.programmeOptedIn ?? false,
    address_streetname: street.streetname,
    address_housenumber: street.housenumber,
    address_housenumber_extension: street.extension,
    address_postalcode: storedText(address?.postcode),
    address_towncity: storedText(address?.city),
    country_code: storedText(address?.countryId),
    phone_number: storedText(address?.telephone),
  };
}
