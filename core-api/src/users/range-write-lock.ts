/**
 * The one lock every write of a chain's member-number ranges takes first (a new range, a changed
 * or deleted one, the default range add-user creates): the overlap check and the "has the chain a
 * generated range yet" check read, then write, so two such writes of one chain must not run side
 * by side.
 *
 * A `SELECT ... FOR UPDATE` on the chain's row serialises them on one server, but a Galera
 * cluster does not carry row locks from node to node: two nodes would each pass their check and
 * both commit (two default ranges, or two overlapping ones). So the lock is a write: it bumps
 * `chains.member_number_ranges_version`, which takes the same row lock on the node and puts the
 * chain's row into the transaction's write set; of two such transactions on different nodes the
 * later fails certification (1213) and the transaction runner runs it again, when it sees the
 * other's range.
 */
import { eq, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { chains } from "../db/schema.ts";

/** A transaction of the core database. */
type CoreTx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

/**
 * Takes the range-write lock of chain `chainId` inside transaction `tx` (module comment); held
 * until the transaction ends.
 */
export async function lockChainRanges(tx: CoreTx, chainId: number): Promise<void> {
  await tx.update(chains).set({ memberNumberRangesVersion: sql`${chains.memberNumberRangesVersion} + 1` }).where(eq(chains.id, chainId));
}
