/** The reconcile's synchronous last_hash is the shared one, byte for byte. */
import { userInfoHash } from "@service/shared/user-info-hash";
import { describe, expect, it } from "vitest";
import { userInfoDigest } from "./user-info-digest.ts";

describe("userInfoDigest", () => {
  it("equals userInfoHash of shared/src/user-info-hash.ts", async () => {
    const samples: object[] = [
      {},
      { first_name: "Zoë", last_name: null, webshop_customer_id: 7, mailing_list_subscribed: true },
      { username: "ann@example.com", address_streetname: "Straße 1\n2", phone_number: "+31612345678", password: "never hashed", gender: "female" },
      { nested: { b: [1, "2", null, { z: "😀", a: false }] }, skipped: undefined },
    ];
    for (const sample of samples) expect(userInfoDigest(sample)).toBe(await userInfoHash(sample));
    // Flat objects whose keys come in other orders, with numbers of every kind, and nested ones.
    const flat = { z: 1, a: -0, m: 1e21, b: 0.1, c: "\u2028\"quote\"", d: true, e: null, f: undefined, password: "x" };
    const reordered = Object.fromEntries(Object.entries(flat).reverse());
    for (const sample of [flat, reordered, { ...flat, n: { deep: [1] } }]) expect(userInfoDigest(sample)).toBe(await userInfoHash(sample));
    expect(userInfoDigest({ a: 1 })).not.toBe(userInfoDigest({ a: 2 }));
    expect(() => userInfoDigest({ a: Number.NaN })).toThrow(TypeError);
  });

  it("texts JSON escapes are written as JSON.stringify writes them", async () => {
    const texts = ["plain", "", "quote \" in", "back\\slash", "tab\tnew\nline\r", "\u0000\u0001\u001f\u007f", "emoji 😀 pair", "lone \ud800 high", "lone \udfff low",
      "\u2028\u2029", "ünïcödé ß", "</script>", "   spaced   "];
    for (const text of texts) {
      const sample = { first_name: text, last_name: "x", webshop_customer_id: 1 };
      expect(userInfoDigest(sample), JSON.stringify(text)).toBe(await userInfoHash(sample));
    }
  });

  it("one key set after another, with the same key count or not, each hashed by its own keys", async () => {
    const base = { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, mailing_list_subscribed: false };
    const sequence: Array<Record<string, unknown>> = [
      base,
      { ...base, first_name: "Bo" },
      // the same count, one key replaced by another
      { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, programme_opted_in: true },
      base,
      // the same keys plus a password (not hashed), and a password instead of a key
      { ...base, password: "secret" },
      { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, password: "secret" },
      { first_name: "Ann", last_name: "Lee", webshop_customer_id: 1, gender: "female" },
      // a key whose value is undefined counts as absent; one key fewer, one more
      { ...base, last_name: undefined },
      { first_name: "Ann", webshop_customer_id: 1, mailing_list_subscribed: false },
      { ...base, phone_number: null },
      // the same keys in another order, and not flat
      { mailing_list_subscribed: false, webshop_customer_id: 1, last_name: "Lee", first_name: "Ann" },
      { ...base, first_name: ["Ann"] },
      { ...base, first_name: { a: 1 } },
      base,
    ];
    for (const sample of sequence) expect(userInfoDigest(sample), JSON.stringify(sample)).toBe(await userInfoHash(sample));
  });
});
