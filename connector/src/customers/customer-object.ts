/**
 * The webshop customer object (spec, "Webshop connector endpoints": what `update` answers with), in
 * Magento REST's shape, from the rows of one customer (mapping.ts CustomerBundle). Pure.
 */
import type { Customer, CustomerAddress } from "@service/shared/connector";
import { isSubscribed, type AddressRow, type CustomerBundle } from "./mapping.ts";

/** Magento REST datetime: `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatMagentoDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

function addressObject(bundle: CustomerBundle, a: AddressRow): CustomerAddress {
  const regionId = a.regionId ?? 0; // Magento REST renders "no region id" as 0
  return {
    id: a.entityId,
    customer_id: bundle.customer.entityId,
    region: { region_code: a.regionId ? bundle.regionCodes.get(a.regionId) ?? null : null, region: a.region, region_id: regionId },
    region_id: regionId,
    country_id: a.countryId,
    street: a.street ? a.street.split("\n") : [],
    telephone: a.telephone,
    postcode: a.postcode,
    city: a.city,
    firstname: a.firstname,
    lastname: a.lastname,
    default_shipping: a.entityId === bundle.customer.defaultShipping,
    default_billing: a.entityId === bundle.customer.defaultBilling,
  };
}

/** The webshop customer object returned by update (spec's keys exactly). */
export function customerObject(bundle: CustomerBundle): Customer {
  const { customer: c, service } = bundle;
  return {
    id: c.entityId,
    group_id: c.groupId,
    default_billing: c.defaultBilling == null ? null : String(c.defaultBilling),
    default_shipping: c.defaultShipping == null ? null : String(c.defaultShipping),
    created_at: formatMagentoDateTime(c.createdAt),
    updated_at: formatMagentoDateTime(c.updatedAt),
    created_in: c.createdIn,
    dob: c.dob,
    email: c.email ?? "",
    firstname: c.firstname,
    lastname: c.lastname,
    gender: c.gender,
    store_id: c.storeId ?? 0,
    website_id: c.websiteId ?? 0,
    addresses: bundle.addresses.map((a) => addressObject(bundle, a)),
    disable_auto_group_change: c.disableAutoGroupChange,
    extension_attributes: {
      is_subscribed: isSubscribed(bundle),
      service_data: {
        customer_id: c.entityId,
        user_id: service?.userId ?? null,
        member_number: service?.memberNumber ?? null,
        programme_opted_in: service?.programmeOptedIn ?? null,
        mailing_list_subscribed: service?.mailingListSubscribed ?? null,
        printed_mailing_list_subscribed: service?.printedMailingListSubscribed ?? null,
        last_hash: service?.lastHash ?? null,
      },
    },
  };
}
