/**
 * The chain as the Resources API renders it, at any level: what GET /resources/chain answers and
 * what a business, an allowed IP range or a service client nests under `chain`. A nested
 * resource is rendered at level - 1 with its own declaration (handbook, "recursion level"), so
 * the chain inside a business at level 3 is the chain resource at level 2, read the same way.
 */
import type { CoreDb } from "../db/client.ts";
import type { ResourceRecord } from "../db/resource-columns.ts";
import { liveIpRanges } from "../ip-ranges/ip-range-repository.ts";
import { chainHeadRecord, chainRecord, HEAD_LEVEL, RANGES_LEVEL, type ChainHead } from "./chain-columns.ts";
import { findChain } from "./chain-repository.ts";

/**
 * The record of chain `chainId` for rendering at `level`: one query, plus one for its allowed IP
 * ranges when the level shows them.
 * @param opts.includeDeleted also a deleted chain
 * @returns the record, or null when the chain does not exist (or is deleted, without includeDeleted)
 */
export async function readChainRecord(
  db: CoreDb,
  chainId: number,
  level: number,
  opts: { includeDeleted?: boolean } = {},
): Promise<ResourceRecord | null> {
  const [row, ranges] = await Promise.all([
    findChain(db, chainId, opts),
    level >= RANGES_LEVEL ? liveIpRanges(db, chainId) : undefined,
  ]);
  return row ? chainRecord(row, ranges) : null;
}

/**
 * The chain record to nest in a resource rendered at `level` (the chain itself is rendered at
 * level - 1).
 * @param known the chain's head when the caller has it already (a request's scope reads it with
 *   the authentication): no query when the chain is rendered at HEAD_LEVEL or below
 * @returns `{id}` alone when the chain will be rendered as a bare reference (level <= 1), so no
 *   query is made; otherwise the chain record for level - 1 (deleted or not)
 */
export async function loadChainRecord(db: CoreDb, chainId: number, level: number, known?: ChainHead): Promise<ResourceRecord> {
  if (level <= 1) return { id: chainId };
  // The request's scope read the chain's head with the authentication: no query at the default level.
  if (known?.id === chainId && level - 1 <= HEAD_LEVEL && HEAD_LEVEL < RANGES_LEVEL) return chainHeadRecord(known);
  return (await readChainRecord(db, chainId, level - 1, { includeDeleted: true })) ?? { id: chainId };
}
