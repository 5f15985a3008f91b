/**
 * The floor of the sync's unchanged pass: what a pass that finds nothing to send must do at the
 * least, in the reconcile's shape. The reconcile's own four statements per page
 * (connector/src/sync/customer-pages.ts PAGE_STATEMENTS) on one connection of a bare mysql2 pool,
 * keyset pages of its size, the next page read while this one is hashed (as the reconcile does);
 * then one sha256 per customer over its rows as they come (the customer, its service data,
 * addresses and first subscription), compared with its last_hash. No snapshot transaction (two
 * statements a page fewer than the reconcile) and no canonical user info: the rows' JSON is hashed
 * as it is.
 */
import { createHash } from "node:crypto";
import type { Pool, PoolConnection, RowDataPacket } from "mysql2/promise";
import { PAGE_STATEMENTS } from "../../connector/src/sync/customer-pages.ts";

type Row = unknown[];
type Page = { customers: Row[]; services: Row[]; addresses: Row[]; subscribers: Row[] };

const { customers: C, service: S, addresses: A, subscribers: N } = PAGE_STATEMENTS;

const rowsOf = async (conn: PoolConnection, sql: string, params: unknown[]): Promise<Row[]> =>
  (await conn.query<RowDataPacket[]>({ sql, rowsAsArray: true }, params))[0] as unknown as Row[];

/** The page of customers after `afterId` and their rows, on one connection (the three range statements queued on it); null past the last. */
async function readPage(pool: Pool, websiteIds: number[], afterId: number, pageSize: number): Promise<Page | null> {
  const conn = await pool.getConnection();
  try {
    const customers = await rowsOf(conn, C.sql, [afterId, websiteIds, pageSize]);
    if (customers.length === 0) return null;
    const range = [customers[0]![C.columns.id], customers.at(-1)![C.columns.id]];
    const [services, addresses, subscribers] = await Promise.all([S.sql, A.sql, N.sql].map((sql) => rowsOf(conn, sql, range)));
    return { customers, services: services!, addresses: addresses!, subscribers: subscribers! };
  } finally {
    conn.release();
  }
}

/** The rows of a page's statement by customer id (its first column). */
function byCustomer(rows: Row[]): Map<number, Row[]> {
  const out = new Map<number, Row[]>();
  for (const row of rows) {
    const id = row[0] as number;
    const own = out.get(id);
    if (own) own.push(row);
    else out.set(id, [row]);
  }
  return out;
}

/** Hashes each customer of `page`; returns how many had a last_hash equal to their rows' digest. */
function hashPage(page: Page): number {
  const service = byCustomer(page.services);
  const address = byCustomer(page.addresses);
  const subscriber = byCustomer(page.subscribers);
  let matched = 0;
  for (const customer of page.customers) {
    const id = customer[C.columns.id] as number;
    const own = service.get(id)?.[0] ?? null;
    const rows = [customer, own, address.get(id) ?? [], subscriber.get(id)?.[0] ?? null];
    if (own && own[S.columns.lastHash] === createHash("sha256").update(JSON.stringify(rows)).digest("hex")) matched++;
  }
  return matched;
}

/**
 * One pass over the customers of `websiteIds`, `pageSize` at a time.
 * @param pool a bare mysql2 pool on the webshop's database
 * @returns how many customers it read, and how many of them had a last_hash equal to their rows' digest
 *   (none, unless a row's JSON happens to hash to it: the count is there so the work is not optimised away)
 * @throws Error for an empty `websiteIds` (the reconcile has nothing to read then)
 */
export async function bareScanAndHash(pool: Pool, websiteIds: number[], pageSize: number): Promise<{ scanned: number; matched: number }> {
  if (websiteIds.length === 0) throw new Error("no websites to scan");
  let scanned = 0;
  let matched = 0;
  let next = readPage(pool, websiteIds, 0, pageSize);
  for (;;) {
    const page = await next;
    if (!page) return { scanned, matched };
    next = readPage(pool, websiteIds, page.customers.at(-1)![C.columns.id] as number, pageSize);
    // A failed read of the next page is thrown by the await above, not left unhandled meanwhile.
    next.catch(() => undefined);
    matched += hashPage(page);
    scanned += page.customers.length;
  }
}
