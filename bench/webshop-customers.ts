/**
 * The bench's webshop customers: `count` accounts in the webshop's default website (the one the
 * connector's seed creates), serving the chain it serves already or else the bench's own chain
 * (by the id the core database handed out), all with one password hashed in the current Magento format (argon2id13, 32 bytes,
 * opslimit 2, 64 MiB: `<hex>:<salt>:3_32_2_67108864`, by the connector's own hashMagentoPassword),
 * so authenticate verifies one argon2id and re-hashes nothing. Each run clears their lockout
 * state, the per-address counters and the lockouts per customer and address.
 *
 * The per-address limit (connector/src/customers/address-throttle.ts) is the product's: the bench
 * does not loosen it, it speaks as many clients. It calls with the integration token, as the
 * platform does, so the connector believes the address it forwards (it also trusts 127.0.0.1 as a
 * proxy: TRUSTED_PROXIES, bench/services.ts), and every authenticate names a client address of
 * the benchmarking range 198.18.0.0/15 (RFC 2544) in X-Forwarded-For, one per customer and run
 * (benchClientAddress): an attempt a killed connector left pending in an earlier run is on
 * another address, and one address sees at most its customer's requests in flight, far below the limit.
 */
import mysql from "mysql2/promise";
import { hashMagentoPassword } from "../connector/src/customers/magento-password.ts";
import type { BenchSettings } from "./section.ts";

export const BENCH_CUSTOMER_PASSWORD = "Bench-Password-1";

/** The email of bench customer `i` (0-based). */
export const benchCustomerEmail = (i: number) => `bench-customer-${i}@bench.invalid`;

/** Addresses of 198.18.0.0/15 (RFC 2544, benchmarking) per run: one for each of up to this many customers. */
const ADDRESSES_PER_RUN = 256;

/**
 * The client address (X-Forwarded-For) of bench customer `i` in run `run`: in 198.18.0.0/15
 * (never its first address), different for each customer (i < 256) and, across 511 runs in
 * turn, for each run.
 * @param run any whole number that differs between runs (for example the start time in ms)
 */
export function benchClientAddress(run: number, i: number): string {
  const n = (Math.abs(Math.trunc(run)) % 511) * ADDRESSES_PER_RUN + (i % ADDRESSES_PER_RUN) + 1;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
}

/** The webshop's default website, its first store view and the chain it serves (null: none yet). */
async function defaultWebsite(conn: mysql.Connection): Promise<{ websiteId: number; storeId: number; chainId: number | null } | undefined> {
  const [[site]] = (await conn.query(
    `SELECT w.website_id AS websiteId, (SELECT MIN(s.store_id) FROM store s WHERE s.website_id = w.website_id) AS storeId,
       (SELECT MIN(m.service_chain_id) FROM service_chain_website m WHERE m.website_id = w.website_id) AS chainId
     FROM store_website w WHERE w.is_default = 1 ORDER BY w.website_id LIMIT 1`,
  )) as unknown as [[{ websiteId: number; storeId: number; chainId: number | null } | undefined]];
  return site;
}

/**
 * Makes sure customers 0..count-1 exist with the bench password, unlocked, in the webshop's
 * default website; maps that website to `chainId` when it serves no chain yet.
 * @param chainId a chain of the bench's core database (its id as the database handed it out)
 * @returns the stored hash (its parameters are what the argon2id floor uses) and the chain the
 *   customers' website serves (the `service_chain_id` authenticate names)
 * @throws Error when the webshop database has no default website (the connector was not started)
 */
export async function ensureBenchCustomers(settings: BenchSettings, count: number, chainId: number): Promise<{ hash: string; chainId: number }> {
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${settings.webshopDb}`;
  const conn = await mysql.createConnection({ uri: url.toString(), timezone: "Z" });
  try {
    const site = await defaultWebsite(conn);
    if (!site) throw new Error(`${settings.webshopDb} has no default website: start the connector first`);
    if (site.chainId === null) {
      await conn.query("INSERT INTO service_chain_website (service_chain_id, website_id) VALUES (?, ?)", [chainId, site.websiteId]);
    }
    const [[existing]] = (await conn.query(
      "SELECT password_hash AS hash FROM customer_entity WHERE email = ? AND website_id = ?",
      [benchCustomerEmail(0), site.websiteId],
    )) as unknown as [[{ hash: string } | undefined]];
    const hash = existing?.hash?.endsWith(":3_32_2_67108864") ? existing.hash : await hashMagentoPassword(BENCH_CUSTOMER_PASSWORD);
    const now = new Date();
    for (let i = 0; i < count; i++) {
      await conn.query(
        `INSERT INTO customer_entity (website_id, email, group_id, store_id, created_at, updated_at, is_active, firstname, lastname, password_hash)
         VALUES (?, ?, 1, ?, ?, ?, 1, 'Bench', ?, ?)
         ON DUPLICATE KEY UPDATE password_hash = VALUES(password_hash), is_active = 1, failures_num = 0, first_failure = NULL, lock_expires = NULL`,
        [site.websiteId, benchCustomerEmail(i), site.storeId, now, now, `Customer ${i}`, hash],
      );
    }
    await conn.query("DELETE FROM service_authenticate_throttle");
    await conn.query("DELETE FROM service_authenticate_lockout");
    return { hash, chainId: site.chainId === null ? chainId : Number(site.chainId) };
  } finally {
    await conn.end();
  }
}
