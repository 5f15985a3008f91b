/**
 * A stored user as the user info object (`@service/shared/user-info`): the `user` of add-user,
 * get-user and alter-user. Datetimes in the request's version's form (http/api-version.ts).
 */
import type { PhoneNumberStatus, UserGender, UserInfo } from "@service/shared/user-info";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import type { UserRow } from "./user-repository.ts";

/**
 * @param version the request's API version (created_date / last_modified_date form)
 * @returns the user info object: every key, never the password
 */
export function userInfoOf(row: UserRow, version: ApiVersion): UserInfo {
  return {
    id: row.id,
    user_id: row.id,
    member_number: row.memberNumber,
    username: row.username,
    address_streetname: row.addressStreetname,
    address_housenumber: row.addressHousenumber,
    address_housenumber_extension: row.addressHousenumberExtension,
    address_line_2: row.addressLine2,
    address_line_3: row.addressLine3,
    address_postalcode: row.addressPostalcode,
    address_regionstate: row.addressRegionstate,
    address_towncity: row.addressTowncity,
    birthday: row.birthday,
    country_code: row.countryCode,
    entity_code: { code: String(row.chainId), type: "chain" },
    first_name: row.firstName,
    last_name: row.lastName,
    gender: row.gender as UserGender | null,
    mailing_list: {
      mailing_list_sub_offered: row.mailingListSubOffered,
      mailing_list_subscribed: row.mailingListSubscribed,
      printed_mailing_list_subscribed: row.printedMailingListSubscribed,
    },
    opt_in_programme: { programme_opted_in: row.programmeOptedIn },
    phone_number: row.phoneNumber,
    signup_channel: row.signupChannel,
    phone_number_status: row.phoneNumberStatus as PhoneNumberStatus,
    phone_number_duplicate: row.phoneNumberDuplicate,
    referral_code: row.referralCode,
    auxiliary_identifier: row.auxiliaryIdentifier,
    authentication_point_identifier: row.authenticationPointIdentifier,
    language: row.language,
    home_store_id: row.homeStoreId,
    signup_store_id: row.signupStoreId,
    is_employee: row.isEmployee,
    registered: row.registered,
    opt_in_secondary: row.optInSecondary,
    created_date: formatDateTime(row.createdDate, version)!,
    last_modified_date: formatDateTime(row.lastModifiedDate, version)!,
  };
}
