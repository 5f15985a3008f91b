/**
 * The canonical last_hash, pinned. The vectors were taken from the implementation every stored
 * hash was made with; a change to any of them would make every customer look changed (and the
 * reconcile send them all again), so they must never be edited to follow the code.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, userInfoHash, userInfoHasher } from "./user-info-hash.ts";

/** The connector's read of a customer (customers/mapping.ts userInfoObject), in its key order. */
const READ = {
  first_name: "Ann", last_name: "Lee", birthday: "1990-05-06", username: "ann@example.com", webshop_customer_id: 7, gender: "female",
  printed_mailing_list_subscribed: false, mailing_list_subscribed: true, mailing_list_sub_offered: true, programme_opted_in: true,
  address_streetname: "Oudegracht", address_housenumber: "12", address_housenumber_extension: "bis", address_postalcode: "3511 AB",
  address_towncity: "Utrecht", country_code: "NL", phone_number: "+31612345678",
};

const VECTORS: Array<{ name: string; value: object; hash: string }> = [
  { name: "empty", value: {}, hash: "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a" },
  { name: "a customer's read", value: READ, hash: "d7b0435bf15d7d3f7c080072d96221956dcfd04ed7240caad3a899dfe24866fb" },
  {
    name: "a read with everything cleared",
    value: {
      first_name: null, last_name: null, birthday: null, username: "", webshop_customer_id: 123456789, gender: null,
      printed_mailing_list_subscribed: false, mailing_list_subscribed: false, mailing_list_sub_offered: false, programme_opted_in: false,
      address_streetname: null, address_housenumber: null, address_housenumber_extension: null, address_postalcode: null,
      address_towncity: null, country_code: null, phone_number: null,
    },
    hash: "9b7412371cc63b0455b93c49c240b978122899df1c980486b43fb04eec26fcc0",
  },
  {
    name: "texts with escapes",
    value: {
      first_name: "Zoë \"Q\" back\\slash", last_name: "tab\tnew\nline\r\u0000\u001f\u007f", username: "😀 \u2028\u2029 </script>",
      address_streetname: "Straße", webshop_customer_id: 1,
    },
    hash: "d836d1153601723b40e2fdb9f196c6718aa7596afa92910d7a2baa2d93fe8c97",
  },
  { name: "lone surrogates", value: { first_name: "lone \ud800 high", last_name: "lone \udfff low" }, hash: "e7ed9b580715fb5d33a16cfa1cf7df859c51cec5b339943f58a8fd509dfcab4b" },
  { name: "numbers", value: { a: 0, b: -0, c: 1e21, d: 0.1, e: -12.5, f: 9007199254740993, g: 1e-7 }, hash: "f7b025a64731200a2e7b2a1691f93439dd7ee3bdcd0a64f47edfe4dd093c64bc" },
  {
    name: "password and undefined dropped at every depth, arrays in order",
    value: { b: 1, a: { d: null, c: "x", password: "inner" }, password: "p", u: undefined, l: [2, { z: 1, y: true }, undefined] },
    hash: "b691b30a2b9d116e7660a392960ea06f83282173e41535e003993940f139ed3d",
  },
  { name: "UTF-16 key order", value: { "é": 1, Z: 2, a: 3, _: 4, 10: 5, 9: 6, A: 7 }, hash: "259d5abb286ce868fa0f344189f8edeb996cbd3aebaf2a22439b58d1e408feae" },
  {
    name: "a platform user's nested parts",
    value: {
      id: 7, user_id: 7, member_number: "100000", entity_code: { code: "1", type: "chain" },
      mailing_list: { mailing_list_sub_offered: true, mailing_list_subscribed: false, printed_mailing_list_subscribed: null },
      opt_in_programme: { programme_opted_in: true }, phone_number_status: 2, is_employee: false, last_modified_date: "2026-11-21T10:00:00Z",
    },
    hash: "eccef368615cbc4fceec1e9c95b29817005bd0129101dfd4f501c09b6cb7d536",
  },
];

describe("user info hash", () => {
  it("gives the pinned hashes", () => {
    for (const v of VECTORS) expect(userInfoHash(v.value), v.name).toBe(v.hash);
  });

  it("is sha256 hex of the canonical JSON: sorted keys, no password, no undefined, null kept", () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: "x" }, password: "p", u: undefined, l: [2, { z: 1, y: true }] }))
      .toBe('{"a":{"c":"x","d":null},"b":1,"l":[2,{"y":true,"z":1}]}');
    expect(canonicalJson(READ)).toBe(
      '{"address_housenumber":"12","address_housenumber_extension":"bis","address_postalcode":"3511 AB","address_streetname":"Oudegracht",' +
      '"address_towncity":"Utrecht","birthday":"1990-05-06","country_code":"NL","first_name":"Ann","gender":"female","last_name":"Lee",' +
      '"mailing_list_sub_offered":true,"mailing_list_subscribed":true,"phone_number":"+31612345678","printed_mailing_list_subscribed":false,' +
      '"programme_opted_in":true,"username":"ann@example.com","webshop_customer_id":7}');
    const expected = createHash("sha256").update('{"first_name":"Zoë","last_name":null}', "utf8").digest("hex");
    expect(userInfoHash({ last_name: null, first_name: "Zoë" })).toBe(expected);
    expect(userInfoHash({ first_name: "Zoë", last_name: null, password: "secret" })).toBe(expected);
  });

  it("writes every text as JSON.stringify does", () => {
    const texts = ["plain", "", "quote \" in", "back\\slash", "tab\tnew\nline\r", "\u0000\u0001\u001f\u007f", "emoji 😀 pair", "lone \ud800 high",
      "lone \udfff low", "\u2028\u2029", "ünïcödé ß", "</script>", "   spaced   "];
    for (const text of texts) expect(canonicalJson({ t: text }), JSON.stringify(text)).toBe(`{"t":${JSON.stringify(text)}}`);
  });

  it("refuses values JSON cannot carry", () => {
    expect(() => userInfoHash({ n: Number.NaN } as object)).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson({ b: 1n })).toThrow(TypeError);
  });
});

describe("userInfoHasher", () => {
  it("gives the pinned hashes, one shape after another", () => {
    const hasher = userInfoHasher();
    for (const v of [...VECTORS, ...VECTORS.slice().reverse(), ...VECTORS]) expect(hasher(v.value), v.name).toBe(v.hash);
  });

  it("hashes each object by its own keys, whatever the shape before it", () => {
    const base = { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, mailing_list_subscribed: false };
    const sequence: Array<Record<string, unknown>> = [
      base,
      { ...base, first_name: "Bo" },
      // the same count, one key replaced by another
      { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, programme_opted_in: true },
      base,
      // a password added (not hashed), and a password instead of a key
      { ...base, password: "secret" },
      { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, password: "secret" },
      // a key whose value is undefined counts as absent; one key fewer, one more
      { ...base, last_name: undefined },
      { first_name: "Ann", webshop_customer_id: 1, mailing_list_subscribed: false },
      { ...base, phone_number: null },
      // the same keys in another order, nested values, a key inherited rather than own
      { mailing_list_subscribed: false, webshop_customer_id: 1, last_name: "Lee", first_name: "Ann" },
      { ...base, first_name: ["Ann"] },
      { ...base, first_name: { a: 1, password: "x" } },
      { toString: "own", a: 1 },
      { b: 2, a: 1 },
      base,
    ];
    const hasher = userInfoHasher();
    for (const sample of sequence) expect(hasher(sample), JSON.stringify(sample)).toBe(userInfoHash(sample));
    expect(hasher({ a: 1 })).not.toBe(hasher({ a: 2 }));
    expect(() => hasher({ a: Number.NaN })).toThrow(TypeError);
  });
});
