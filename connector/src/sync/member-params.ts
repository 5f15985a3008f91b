/**
 * What the reconcile sends to add-user for a webshop customer (spec, "Internal call: add-user";
 * handbook, "Sync between the webshop and the platform"). Pure.
 *
 * - Every field the shop holds is sent, a cleared one as null: add-user with update_if_exists
 *   clears a value sent empty, so the member ends up as the customer is. Fields the shop does not
 *   hold (language, stores, referral code, ...) are not sent and stay as the platform has them.
 * - `authentication_point_identifier` is the webshop customer id (the webshop is the chain's
 *   authentication point), so the customer finds the same member on every pass.
 * - `member_number` only when the platform gave one before (it always comes from the platform),
 *   so a customer whose email changed still finds its member.
 * - `password` never: the shop's password hash stays in the shop, which authenticates its
 *   customers itself (shopper login through the webshop).
 */
import type { UserInfoObject } from "@service/shared/connector";
import type { AddUserParams } from "./platform-client.ts";

/**
 * The add-user parameters of a customer (update_if_exists is added by the client).
 * @param info the customer's user info object (customers/mapping.ts userInfoObject)
 * @param memberNumber the member number the platform gave the customer, if any
 */
export function addUserParamsOf(info: UserInfoObject, memberNumber: string | null): AddUserParams {
  return {
    username: info.username,
    authentication_point_identifier: String(info.webshop_customer_id),
    ...(memberNumber ? { member_number: memberNumber } : {}),
    first_name: info.first_name,
    last_name: info.last_name,
    birthday: info.birthday,
    gender: info.gender,
    address_streetname: info.address_streetname,
    address_housenumber: info.address_housenumber,
    address_housenumber_extension: info.address_housenumber_extension,
    address_postalcode: info.address_postalcode,
    address_towncity: info.address_towncity,
    country_code: info.country_code,
    phone_number: info.phone_number,
    mailing_list_subscribed: info.mailing_list_subscribed,
    mailing_list_sub_offered: info.mailing_list_sub_offered,
    printed_mailing_list_subscribed: info.printed_mailing_list_subscribed,
    programme_opted_in: info.programme_opted_in,
  };
}
