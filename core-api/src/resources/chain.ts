/**
 * The chain as a nested reference (spec, "Chain"): what a business renders under `chain`.
 * `/resources/chain` itself is not served yet; its adapter will build on this loader.
 *
 * Only the properties the database stores are given (id, name, deleted, created_date,
 * last_modified_date); the rest of the Chain declaration is left out of responses until the chain
 * settings are stored (render leaves out what a record does not carry).
 */
import { eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { chains } from "../db/schema.ts";
import type { ResourceRecord } from "./render.ts";

/**
 * The chain record for rendering at response level `level` (the chain itself is then rendered at
 * level - 1).
 * @returns `{id}` alone when the chain will be rendered as a bare reference (level <= 1), so no
 *   query is made; the stored properties otherwise
 */
export async function loadChainRecord(db: CoreDb, chainId: number, level: number): Promise<ResourceRecord> {
  if (level <= 1) return { id: chainId };
  const [row] = await db.select().from(chains).where(eq(chains.id, chainId)).limit(1);
  if (!row) return { id: chainId };
  return {
    id: row.id,
    name: row.name,
    deleted: row.deleted,
    created_date: row.createdDate,
    last_modified_date: row.lastModifiedDate,
  };
}
