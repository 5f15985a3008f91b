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
});
