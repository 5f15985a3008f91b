/**
 * The chain as a nested reference (spec, "Chain"): what a business or an allowed IP range
 * renders under `chain`.
 *
 * Decision: a nested chain carries its identity only (id, name, deleted, created_date,
 * last_modified_date); its settings are read from `/resources/chain` itself, so a list of
 * businesses does not load, and repeat, every chain setting at the deeper levels.
 */
import { eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { chains } from "../db/schema.ts";
import type { ResourceRecord } from "../resources/render.ts";
import type { ChainRow } from "./repository.ts";

/**
 * The chain record for rendering at response level `level` (the chain itself is then rendered at
 * level - 1).
 * @param known the chain's row when the caller has it already (a request's scope reads it with
 *   the authentication): no query then
 * @returns `{id}` alone when the chain will be rendered as a bare reference (level <= 1), so no
 *   query is made; the identity properties otherwise
 */
export async function loadChainRecord(db: CoreDb, chainId: number, level: number, known?: ChainRow): Promise<ResourceRecord> {
  if (level <= 1) return { id: chainId };
  const [row] = known?.id === chainId ? [known] : await db.select().from(chains).where(eq(chains.id, chainId)).limit(1);
  if (!row) return { id: chainId };
  return {
    id: row.id,
    name: row.name,
    deleted: row.deleted,
    created_date: row.createdDate,
    last_modified_date: row.lastModifiedDate,
  };
}
