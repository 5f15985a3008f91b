/** user_info <-> customer mapping: pure functions, no database. */
import { customerSchema, userInfoInputSchema, userInfoObjectSchema } from "@service/shared/connector";
import { describe, expect, it } from "vitest";
import { customerObject } from "./customer-object.ts";
import {
  addressPatchFromUserInfo, birthdayToDob, customerPatchFromUserInfo, genderFromMagento,
  genderToMagento, mergeStreetLines, servicePatchFromUserInfo, splitStreet, userInfoObject, type CustomerBundle,
} from "./mapping.ts";

const info = (v: unknown) => userInfoInputSchema.parse(v);

const at = new Date("2026-01-02T03:04:05Z");
const bundle: CustomerBundle = {
  customer: {
    entityId: 7, websiteId: 1, email: "ann@example.com", groupId: 1, storeId: 1, createdAt: at, updatedAt: at,
    isActive: 1, disableAutoGroupChange: 0, createdIn: "Default Store View", firstname: "Ann", lastname: "Lee",
    dob: "1990-05-06", passwordHash: "x", defaultBilling: 11, defaultShipping: 11, gender: 2,
    failuresNum: 0, firstFailure: null, lockExpires: null, incrementId: null, prefix: null, middlename: null,
    suffix: null, rpToken: null, rpTokenCreatedAt: null, taxvat: null, confirmation: null, sessionCutoff: null,
  },
  addresses: [{
    entityId: 11, parentId: 7, createdAt: at, updatedAt: at, isActive: 1, city: "Utrecht", countryId: "NL",
    firstname: "Ann", lastname: "Lee", postcode: "3511 AB", region: "Utrecht", regionId: 5,
    street: "Oudegracht\n12\nbis", telephone: "+31612345678", incrementId: null, company: null, fax: null,
    middlename: null, prefix: null, suffix: null, vatId: null, vatIsValid: null, vatRequestDate: null,
    vatRequestId: null, vatRequestSuccess: null,
  }],
  service: {
    customerId: 7, serviceChainId: 1, userId: 42, memberNumber: "M-1", programmeOptedIn: true,
    mailingListSubscribed: true, printedMailingListSubscribed: false, mailingListSubOffered: true,
    lastHash: "h".repeat(64), platformModifiedAt: null, updatedAt: at,
  },
  subscriber: {
    subscriberId: 1, storeId: 1, changeStatusAt: at, customerId: 7, subscriberEmail: "ann@example.com",
    subscriberStatus: 1, subscriberConfirmCode: null,
  },
  regionCodes: new Map([[5, "UT"]]),
};

describe("gender", () => {
  it("maps user_info genders to Magento 1/2/3 and back", () => {
    expect(genderToMagento("male")).toBe(1);
    expect(genderToMagento("female")).toBe(2);
    expect(genderToMagento("nonbinary")).toBe(3);
    expect(genderToMagento("other")).toBe(3);
    expect(genderToMagento("")).toBeNull();
    expect(genderToMagento(null)).toBeNull();
    expect([1, 2, 3, null, 0].map(genderFromMagento)).toEqual(["male", "female", "other", null, null]);
  });
});

describe("birthday", () => {
  it("keeps YYYY-MM-DD, converts offsets to the UTC date, rejects impossible dates", () => {
    expect(birthdayToDob("1990-05-06")).toBe("1990-05-06");
    expect(birthdayToDob("1990-05-06T23:30:00-02:00")).toBe("1990-05-07");
    expect(birthdayToDob("")).toBeNull();
    expect(birthdayToDob("2023-02-30")).toBeUndefined();
  });
});

describe("street lines", () => {
  it("builds [streetname, housenumber, extension] and drops empty trailing lines", () => {
    expect(mergeStreetLines(null, info({ address_streetname: "Main", address_housenumber: 5 }))).toEqual(["Main", "5"]);
    expect(mergeStreetLines(null, info({ address_streetname: "Main", address_housenumber_extension: "A" }))).toEqual(["Main", "", "A"]);
    expect(mergeStreetLines("Main\n5\nA", info({ address_housenumber: "7" }))).toEqual(["Main", "7", "A"]);
    expect(mergeStreetLines("Main\n5\nA", info({ address_housenumber_extension: null }))).toEqual(["Main", "5"]);
    expect(mergeStreetLines("Main", info({ first_name: "x" }))).toBeUndefined();
    expect(splitStreet("Main\n\nA")).toEqual({ streetname: "Main", housenumber: null, extension: "A" });
  });
});

describe("user_info -> patches", () => {
  it("maps only present keys; null and empty strings clear", () => {
    expect(customerPatchFromUserInfo(info({ username: "a@b.nl", first_name: "", gender: "male", birthday: "2000-01-31" })))
      .toEqual({ email: "a@b.nl", firstname: null, gender: 1, dob: "2000-01-31" });
    expect(customerPatchFromUserInfo(info({ username: "" }))).toEqual({});
    expect(addressPatchFromUserInfo(info({ first_name: "x" }), null)).toBeNull();
    expect(addressPatchFromUserInfo(info({ country_code: "nl", address_postalcode: "", phone_number: "+316" }), null))
      .toEqual({ countryId: "NL", postcode: null, telephone: "+316" });
  });

  it("reads flags nested (get-user) or flat, nested winning; never clears identifiers", () => {
    expect(servicePatchFromUserInfo(info({
      id: 9, member_number: "", mailing_list: { mailing_list_subscribed: true, mailing_list_sub_offered: false },
      mailing_list_subscribed: false, opt_in_programme: { programme_opted_in: true }, printed_mailing_list_subscribed: null,
    }))).toEqual({
      userId: 9, mailingListSubscribed: true, mailingListSubOffered: false, programmeOptedIn: true, printedMailingListSubscribed: null,
    });
    expect(servicePatchFromUserInfo(info({ user_id: "12", id: 9, member_number: 77 }))).toEqual({ userId: 12, memberNumber: "77" });
  });
});

describe("customer -> objects", () => {
  it("renders the user info object with exactly the spec's keys", () => {
    const obj = userInfoObject(bundle);
    expect(userInfoObjectSchema.parse(obj)).toEqual(obj);
    expect(obj).toEqual({
      first_name: "Ann", last_name: "Lee", birthday: "1990-05-06", username: "ann@example.com", webshop_customer_id: 7,
      gender: "female", printed_mailing_list_subscribed: false, mailing_list_subscribed: true, mailing_list_sub_offered: true,
      programme_opted_in: true, address_streetname: "Oudegracht", address_housenumber: "12",
      address_housenumber_extension: "bis", address_postalcode: "3511 AB", address_towncity: "Utrecht",
      country_code: "NL", phone_number: "+31612345678",
    });
  });

  it("renders the customer object like Magento's REST API", () => {
    const obj = customerObject(bundle);
    expect(customerSchema.parse(obj)).toEqual(obj); // strict: no extra keys
    expect(obj).toMatchObject({
      id: 7, default_billing: "11", created_at: "2026-01-02 03:04:05", gender: 2, website_id: 1,
      addresses: [{
        id: 11, customer_id: 7, street: ["Oudegracht", "12", "bis"], region: { region_code: "UT", region: "Utrecht", region_id: 5 },
        region_id: 5, default_billing: true, default_shipping: true,
      }],
      extension_attributes: { is_subscribed: true, service_data: { customer_id: 7, user_id: 42, member_number: "M-1", last_hash: "h".repeat(64) } },
    });
  });

  it("renders a bare customer with defaults", () => {
    const bare = { ...bundle, addresses: [], service: null, subscriber: null, customer: { ...bundle.customer, defaultBilling: null, defaultShipping: null, gender: null } };
    expect(userInfoObject(bare)).toMatchObject({ mailing_list_subscribed: false, programme_opted_in: false, address_streetname: null, gender: null });
    expect(customerObject(bare)).toMatchObject({ default_billing: null, addresses: [], extension_attributes: { is_subscribed: false, service_data: { user_id: null, last_hash: null } } });
  });
});
