/**
 * The floor of the sync's unchanged pass: what a pass that finds nothing to send must do at the
 * least. The reconcile's own four statements per page (connector/src/sync/customer-pages.ts
 * PAGE_STATEMENTS), keyset pages of its size, on a bare mysql2 pool; then one sha256 per customer
 * over its rows as they come (the customer, its service data, addresses and subscriptions),
 * compared with its last_hash. No snapshot transaction (two statements a page fewer than the
 * reconcile) and no canonical user info: the rows' JSON is hashed as it is.
 */
import { createHash } from "node:crypto";
import type { Pool, RowDataPacket } from "mysql2/promise";
import { PAGE_STATEMENTS } from "../../connector/src/sync/customer-pages.ts";

type Row = unknown[];

const rowsOf = async (pool: Pool, sql: string, params: unknown[]): Promise<Row[]> =>
  (await pool.query<RowDataPacket[]>({ sql, rowsAsArray: true }, params))[0] as unknown as Row[];

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

/**
 * One pass over the customers of `websiteIds`, `pageSize` at a time.
 * @param pool a bare mysql2 pool on the webshop's database
 * @returns how many customers it read, and how many of them had a last_hash equal to their rows' digest
 *   (none, unless a row's JSON happens to hash to it: the count is there so the work is not optimised away)
 */
export async function bareScanAndHash(pool: Pool, websiteIds: number[], pageSize: number): Promise<{ scanned: number; matched: number }> {
  const { customers: C, service: S, addresses: A, subscribers: N } = PAGE_STATEMENTS;
  let afterId = 0;
  let scanned = 0;
  let matched = 0;
  for (;;) {
    const customers = await rowsOf(pool, C.sql, [afterId, websiteIds, pageSize]);
    if (customers.length === 0) return { scanned, matched };
    const range = [customers[0]![C.columns.id], customers.at(-1)![C.columns.id]];
    const [services, addresses, subscribers] = await Promise.all([S.sql, A.sql, N.sql].map((sql) => rowsOf(pool, sql, range)));
    const service = byCustomer(services!);
    const address = byCustomer(addresses!);
    const subscriber = byCustomer(subscribers!);
    for (const customer of customers) {
      const id = customer[C.columns.id] as number;
      const own = service.get(id)?.[0];
      const digest = createHash("sha256").update(JSON.stringify([customer, own ?? null, address.get(id) ?? [], subscriber.get(id) ?? []])).digest("hex");
      if (own && own[S.columns.lastHash] === digest) matched++;
      scanned++;
    }
    afterId = customers.at(-1)![C.columns.id] as number;
  }
}
