/**
 * Magento password hashes. Vector sources:
 *  - md5 / sha256 (versions 0 and 1, legacy forms): computed in the test with node:crypto from
 *    Magento's definition hash(salt . password).
 *  - argon2id (versions 2 and 3_*): computed with libsodium's crypto_pwhash (the C library PHP's
 *    sodium_crypto_pwhash wraps) via ctypes, by fixtures/sodium-vectors.py — independent of the
 *    implementation (@node-rs/argon2), so they prove the parameter mapping (ops, KiB, one lane,
 *    salt padding).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  argonSalt, CURRENT_HASH_VERSION, hashMagentoPassword, isCurrentHashFormat, parseHashVersion,
  parseMagentoHash, randomSalt, verifyMagentoPassword,
} from "./magento-password.ts";

const md5 = (s: string) => createHash("md5").update(s).digest("hex");
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

/** From fixtures/sodium-vectors.py (libsodium 1.0.18, crypto_pwhash ALG_ARGON2ID13). */
const SODIUM = {
  /** "correct horse", salt "salt" (padded to "saltsaltsaltsalt"), 32 bytes, ops 2, 64 MiB */
  A: "abed2c28045c6bfa6e6dabcc81adf507599a44ab71b387e54aab03235b563bce",
  /** "Secret123!", 32-char salt cut to its first 16 bytes, defaults */
  B: "d50f8e98f4f813b5d49d41408a967642fd7684d2febc0a3104f32456a52ff110",
  /** "Secret123!", salt "abc", 16 bytes, ops 3, 32 MiB */
  C: "6aa3375645f030d4347387b06b559325",
  /** argon2id(sha256(salt . "Legacy!pw1")) with the salt below: an upgraded 1:3 hash */
  D: "0fd36105588f5ac43993fbb16613fde782df638470696c461c6c6465650d51b1",
};
const SALT_D = "Xy7kQ2mN9pL4rT8vW1zB5cD3fG6hJ0aS";

describe("verifyMagentoPassword", () => {
  it("verifies version 0 (md5) and 1 (sha256) hashes", async () => {
    expect(await verifyMagentoPassword("pw-0", `${md5("saltypw-0")}:salty:0`)).toBe(true);
    expect(await verifyMagentoPassword("pw-1", `${sha256("saltypw-1")}:salty:1`)).toBe(true);
    expect(await verifyMagentoPassword("wrong", `${sha256("saltypw-1")}:salty:1`)).toBe(false);
  });

  it("verifies legacy hash:salt (md5) and bare md5 / sha256 hashes", async () => {
    expect(await verifyMagentoPassword("m1pass", `${md5("ABm1pass")}:AB`)).toBe(true);
    expect(await verifyMagentoPassword("plain", md5("plain"))).toBe(true);
    expect(await verifyMagentoPassword("plain", sha256("plain"))).toBe(true);
    expect(await verifyMagentoPassword("plain", md5("other"))).toBe(false);
  });

  it("verifies argon2id versions 2, 3 and 3_<outlen>_<ops>_<mem> against libsodium vectors", async () => {
    expect(await verifyMagentoPassword("correct horse", `${SODIUM.A}:salt:2`)).toBe(true);
    expect(await verifyMagentoPassword("correct horse", `${SODIUM.A}:salt:3_32_2_67108864`)).toBe(true);
    expect(await verifyMagentoPassword("Secret123!", `${SODIUM.B}:0123456789abcdefghijklmnopqrstuv:3_32_2_67108864`)).toBe(true);
    expect(await verifyMagentoPassword("Secret123!", `${SODIUM.C}:abc:3_16_3_33554432`)).toBe(true);
    expect(await verifyMagentoPassword("Secret123?", `${SODIUM.B}:0123456789abcdefghijklmnopqrstuv:3_32_2_67108864`)).toBe(false);
  });

  it("verifies an upgraded chain by applying each version in turn", async () => {
    expect(await verifyMagentoPassword("Legacy!pw1", `${SODIUM.D}:${SALT_D}:1:3_32_2_67108864`)).toBe(true);
    expect(await verifyMagentoPassword("Legacy!pw2", `${SODIUM.D}:${SALT_D}:1:3_32_2_67108864`)).toBe(false);
    // md5 then sha256, computed here
    const chained = sha256(`s1${md5("s1chain")}`);
    expect(await verifyMagentoPassword("chain", `${chained}:s1:0:1`)).toBe(true);
  });

  it("is case-insensitive on the stored hex and rejects empty, unknown or hostile hashes", async () => {
    expect(await verifyMagentoPassword("pw-1", `${sha256("saltypw-1").toUpperCase()}:salty:1`)).toBe(true);
    expect(await verifyMagentoPassword("x", null)).toBe(false);
    expect(await verifyMagentoPassword("x", "")).toBe(false);
    expect(await verifyMagentoPassword("x", `${md5("sx")}:s:9`)).toBe(false);
    expect(await verifyMagentoPassword("x", "not-a-hash")).toBe(false);
    expect(await verifyMagentoPassword("x", `${SODIUM.A}::2`)).toBe(false); // argon needs a salt
    expect(await verifyMagentoPassword("x", `${SODIUM.A}:salt:3_32_2_99999999999`)).toBe(false); // memory cap
  });
});

describe("hash parsing", () => {
  it("pads or cuts the argon salt to 16 bytes like str_pad/substr", () => {
    expect(Buffer.from(argonSalt("salt")).toString()).toBe("saltsaltsaltsalt");
    expect(Buffer.from(argonSalt("abc")).toString()).toBe("abcabcabcabcabca");
    expect(Buffer.from(argonSalt("0123456789abcdefXYZ")).toString()).toBe("0123456789abcdef");
    expect(() => argonSalt("")).toThrow();
  });

  it("parses version tokens", () => {
    expect(parseHashVersion("0")).toEqual({ kind: "md5" });
    expect(parseHashVersion("3_32_2_67108864")).toEqual({ kind: "argon2id", outlen: 32, ops: 2, memBytes: 67108864 });
    expect(parseHashVersion("3_8_2_67108864")).toBeNull();
    expect(parseHashVersion("4")).toBeNull();
    expect(parseMagentoHash("abc:def:1:2")?.versions).toEqual(["1", "2"]);
  });
});

describe("hashMagentoPassword", () => {
  it("writes 3_32_2_67108864 with a 32-character salt and verifies", async () => {
    const stored = await hashMagentoPassword("N3w-pass");
    const [hash, salt, version, extra] = stored.split(":");
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(salt).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(version).toBe(CURRENT_HASH_VERSION);
    expect(extra).toBeUndefined();
    expect(stored.length).toBeLessThanOrEqual(128); // customer_entity.password_hash varchar(128)
    expect(await verifyMagentoPassword("N3w-pass", stored)).toBe(true);
  });

  it("matches libsodium for a given salt", async () => {
    expect(await hashMagentoPassword("correct horse", "salt")).toBe(`${SODIUM.A}:salt:3_32_2_67108864`);
  });

  it("uses fresh salts", () => {
    expect(randomSalt()).not.toBe(randomSalt());
  });
});

describe("isCurrentHashFormat", () => {
  it("accepts only a single current version", () => {
    expect(isCurrentHashFormat(`${SODIUM.A}:salt:3_32_2_67108864`)).toBe(true);
    expect(isCurrentHashFormat(`${SODIUM.D}:${SALT_D}:1:3_32_2_67108864`)).toBe(false);
    expect(isCurrentHashFormat(`${SODIUM.A}:salt:2`)).toBe(false);
    expect(isCurrentHashFormat(`${sha256("x")}:s:1`)).toBe(false);
    expect(isCurrentHashFormat(null)).toBe(false);
  });
});
