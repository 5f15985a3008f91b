/**
 * Tag storage (spec, "Other records seen in internal call responses": a tag with its chain;
 * "States and transitions": delete-tag sets `active` false and `deleted` true, keeping the row).
 * Every read of a tag comes with the chain fields its record shows, in the same query.
 */
import { and, asc, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { chains, tags } from "../db/schema.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { runStatement, runTransaction } from "@service/shared/node";

export type TagRow = typeof tags.$inferSelect;

/** The chain fields a tag record shows. */
export interface TagChain {
  id: number;
  name: string;
  emailAddress: string | null;
  phoneNumber: string | null;
}

/** A stored tag with its chain. */
export interface StoredTag {
  tag: TagRow;
  chain: TagChain;
}

/** A new tag's values. */
export interface NewTag {
  chainId: number;
  modelClass: string;
  value: string;
  /** admin user id */
  lastUpdatedBy: number | null;
}

const CHAIN = { id: chains.id, name: chains.name, emailAddress: chains.emailAddress, phoneNumber: chains.phoneNumber };

/**
 * Creates an active tag.
 * @param now creation time (cut to the second)
 * @returns the stored tag with its chain
 */
export async function createTag(db: CoreDb, values: NewTag, now: Date): Promise<StoredTag> {
  const at = wholeSeconds(now);
  const id = await runTransaction(db, async (tx) => {
    const [res] = await tx.insert(tags).values({ ...values, createdDate: at, lastModifiedDate: at });
    return Number(res.insertId);
  });
  return (await findTag(db, id))!;
}

/**
 * The tag `id` of any chain with its chain.
 * @param opts.live true: only a tag that is not deleted
 * @returns null when there is none
 */
export async function findTag(db: CoreDb, id: number, opts: { live?: boolean } = {}): Promise<StoredTag | null> {
  const [row] = await db
    .select({ tag: tags, chain: CHAIN })
    .from(tags)
    .innerJoin(chains, eq(chains.id, tags.chainId))
    .where(and(eq(tags.id, id), opts.live ? eq(tags.deleted, false) : undefined));
  return row ?? null;
}

/** One page of the tags of chain `chainId` that are not deleted, oldest first, optionally of one model class. */
export async function listTags(
  db: CoreDb,
  chainId: number,
  query: { modelClass?: string; limit: number; offset: number },
): Promise<StoredTag[]> {
  return db
    .select({ tag: tags, chain: CHAIN })
    .from(tags)
    .innerJoin(chains, eq(chains.id, tags.chainId))
    .where(and(eq(tags.chainId, chainId), query.modelClass === undefined ? undefined : eq(tags.modelClass, query.modelClass), eq(tags.deleted, false)))
    .orderBy(asc(tags.id))
    .limit(query.limit)
    .offset(query.offset);
}

/**
 * Deletes the tag `id` of chain `chainId`: `active` false, `deleted` true, last changed by `adminId` at `now`.
 * @returns whether a tag that was not deleted yet was deleted (false: nothing written; of
 *   concurrent deletions exactly one gets true)
 */
export async function deleteTag(db: CoreDb, chainId: number, id: number, adminId: number | null, now: Date): Promise<boolean> {
  const [res] = await runStatement(() => db
    .update(tags)
    .set({ active: false, deleted: true, lastUpdatedBy: adminId, lastModifiedDate: wholeSeconds(now) })
    .where(and(eq(tags.chainId, chainId), eq(tags.id, id), eq(tags.deleted, false))));
  return res.affectedRows > 0;
}
