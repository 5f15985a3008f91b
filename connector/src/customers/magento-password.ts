/**
 * Magento 2 customer password hashes (handbook, "The Magento-compatible customer store"),
 * compatible with Magento\Framework\Encryption\Encryptor.
 *
 * Stored form `hash:salt:version[:version...]`, versions oldest first:
 *  - `0`  md5(salt + input), hex
 *  - `1`  sha256(salt + input), hex
 *  - `2`  argon2id13 (libsodium crypto_pwhash): 32-byte output, opslimit 2, memlimit 67108864
 *         bytes, salt = the salt string cut / padded by repeating itself to 16 bytes, hex output
 *  - `3_<outlen>_<ops>_<mem>`  the same with explicit parameters (`3` alone = the defaults)
 * An upgraded hash (`1:3_32_2_67108864`) applies each version in turn to the previous result
 * (Encryptor::isValidHash). Older forms still verify: `hash:salt` (Magento 1, md5) and a bare
 * `hash` (md5 when 32 hex characters, sha256 when 64).
 *
 * Argon2 runs in @node-rs/argon2 (the reference implementation, native with prebuilt binaries,
 * same result as libsodium): on libuv's thread pool, so a hash never blocks the event loop and
 * several run on several cores at once (hash-wasm ran them one at a time on the event loop);
 * no more at once than the process's cores can run (hash-slots.ts: each takes 64 MiB while it runs).
 */
import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { hashRaw, type Algorithm, type Version } from "@node-rs/argon2";
import { ARGON_SLOTS } from "./hash-slots.ts";

/** @node-rs/argon2's `Algorithm.Argon2id` and `Version.V0x13` (declared as const enums, which this build cannot import). */
const ARGON2ID = 2 as Algorithm.Argon2id;
const VERSION_13 = 1 as Version.V0x13;

/** The version written for new passwords: argon2id13, 32 bytes, opslimit 2, 64 MiB. */
export const CURRENT_HASH_VERSION = "3_32_2_67108864";
/** Length of the random salt of new hashes (Magento's DEFAULT_SALT_LENGTH). */
export const SALT_LENGTH = 32;
/** libsodium's crypto_pwhash_SALTBYTES. */
const ARGON_SALT_BYTES = 16;
const SALT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** Refuse absurd parameters from a stored hash: a crafted row must not exhaust memory or CPU. */
const MAX_ARGON = { outlen: 128, ops: 10, memBytes: 1024 * 1024 * 1024 };

/** Parameters of one argon2id step. */
export interface ArgonParams {
  outlen: number;
  ops: number;
  /** bytes, as libsodium takes it */
  memBytes: number;
}

/** One step of a hash chain. */
export type HashStep = { kind: "md5" } | { kind: "sha256" } | ({ kind: "argon2id" } & ArgonParams);

const ARGON_DEFAULT: ArgonParams = { outlen: 32, ops: 2, memBytes: 67108864 };

/**
 * Parses one version token (`0`, `1`, `2`, `3`, `3_32_2_67108864`).
 * @returns the step, or null for an unknown or out-of-bounds token
 */
export function parseHashVersion(token: string): HashStep | null {
  if (token === "0") return { kind: "md5" };
  if (token === "1") return { kind: "sha256" };
  if (token === "2" || token === "3") return { kind: "argon2id", ...ARGON_DEFAULT };
  const m = /^3_(\d{1,4})_(\d{1,4})_(\d{1,12})$/.exec(token);
  if (!m) return null;
  const [outlen, ops, memBytes] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // libsodium minimums: 16-byte output, 1 pass, 8 KiB; memory is used in whole KiB.
  if (outlen < 16 || outlen > MAX_ARGON.outlen || ops < 1 || ops > MAX_ARGON.ops) return null;
  if (memBytes < 8192 || memBytes > MAX_ARGON.memBytes || memBytes % 1024 !== 0) return null;
  return { kind: "argon2id", outlen, ops, memBytes };
}

/**
 * Magento's argon salt: the salt string cut to 16 bytes, or padded to 16 by repeating itself
 * (PHP `str_pad($salt, 16, $salt)` after `substr($salt, 0, 16)`).
 * @throws Error for an empty salt (PHP refuses it too)
 */
export function argonSalt(salt: string): Uint8Array {
  const bytes = new TextEncoder().encode(salt);
  if (bytes.length === 0) throw new Error("argon2 needs a non-empty salt");
  const out = new Uint8Array(ARGON_SALT_BYTES);
  for (let i = 0; i < ARGON_SALT_BYTES; i++) out[i] = bytes[i % bytes.length]!;
  return out;
}

/**
 * Applies one step to `input` with `salt`; every step returns lowercase hex.
 * md5/sha256 hash the UTF-8 bytes of salt + input (Encryptor::generateSimpleHash); argon2id waits
 * for one of the process's hash slots (hash-slots.ts) first.
 */
export async function applyHashStep(step: HashStep, input: string, salt: string): Promise<string> {
  if (step.kind === "md5" || step.kind === "sha256") {
    return createHash(step.kind).update(salt + input, "utf8").digest("hex");
  }
  const raw = await ARGON_SLOTS.run(() => hashRaw(input, {
    algorithm: ARGON2ID,
    version: VERSION_13,
    salt: argonSalt(salt),
    timeCost: step.ops,
    parallelism: 1, // libsodium's crypto_pwhash always uses one lane
    memoryCost: step.memBytes / 1024, // in KiB
    outputLen: step.outlen,
  }));
  return raw.toString("hex");
}

interface ParsedHash {
  hash: string;
  salt: string;
  steps: HashStep[];
  /** the version tokens as stored, for the "is it current?" test */
  versions: string[];
}

/** Splits a stored hash into hash, salt and steps; null when it is not a Magento hash. */
export function parseMagentoHash(stored: string): ParsedHash | null {
  const parts = stored.split(":");
  const [hash, salt, ...versions] = parts;
  if (!hash) return null;
  if (parts.length === 1) {
    if (/^[0-9a-f]{32}$/i.test(hash)) return { hash, salt: "", steps: [{ kind: "md5" }], versions: ["0"] };
    if (/^[0-9a-f]{64}$/i.test(hash)) return { hash, salt: "", steps: [{ kind: "sha256" }], versions: ["1"] };
    return null;
  }
  if (parts.length === 2) return { hash, salt: salt!, steps: [{ kind: "md5" }], versions: ["0"] };
  const steps: HashStep[] = [];
  for (const v of versions) {
    const step = parseHashVersion(v);
    if (!step) return null;
    if (step.kind === "argon2id" && !salt) return null;
    steps.push(step);
  }
  return { hash, salt: salt!, steps, versions };
}

/** Compares two hex strings in constant time (for equal lengths; lengths are not secret). */
function hexEquals(a: string, b: string): boolean {
  const x = Buffer.from(a.toLowerCase(), "utf8");
  const y = Buffer.from(b.toLowerCase(), "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Verifies `password` against a stored Magento hash (every format listed in the module comment).
 * @returns true when it matches; false for a wrong password, an empty/null or unknown hash
 */
export async function verifyMagentoPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parsed = parseMagentoHash(stored);
  if (!parsed) return false;
  let recreated = password;
  for (const step of parsed.steps) recreated = await applyHashStep(step, recreated, parsed.salt);
  return hexEquals(recreated, parsed.hash);
}

/**
 * Whether a stored hash is in the current format: one version, {@link CURRENT_HASH_VERSION}
 * (Encryptor::validateHashVersion with `$validateCount = true`). Anything else is re-hashed
 * after the next successful login.
 */
export function isCurrentHashFormat(stored: string | null | undefined): boolean {
  const parsed = stored ? parseMagentoHash(stored) : null;
  return parsed !== null && parsed.versions.length === 1 && parsed.versions[0] === CURRENT_HASH_VERSION;
}

/** A random salt of Magento's alphabet (letters and digits). */
export function randomSalt(length = SALT_LENGTH): string {
  let out = "";
  for (let i = 0; i < length; i++) out += SALT_ALPHABET[randomInt(SALT_ALPHABET.length)];
  return out;
}

/**
 * Hashes a new password in the current format: `<hex>:<32-char salt>:3_32_2_67108864`.
 * @param salt for tests only; a fresh random salt by default
 */
export async function hashMagentoPassword(password: string, salt: string = randomSalt()): Promise<string> {
  const step = parseHashVersion(CURRENT_HASH_VERSION)!;
  const hash = await applyHashStep(step, password, salt);
  return `${hash}:${salt}:${CURRENT_HASH_VERSION}`;
}
