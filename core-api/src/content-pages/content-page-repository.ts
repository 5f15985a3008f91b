/**
 * Content page storage (spec, "Content Page"). Every write of a chain's pages runs in a
 * transaction that first locks the chain's row: writes to one chain's hierarchy are serialised,
 * so two concurrent re-parentings cannot together form a cycle and a page cannot be created
 * under a parent that is being deleted. Names are matched by the database (the unique index and
 * its collation decide what "the same name" is), never in JavaScript.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { findRow, listRows } from "../db/resource-rows.ts";
import { chains, contentPages } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { checkParent, descendantsOf, ownParentError, type PageLink } from "./hierarchy.ts";
import { contentPageColumns, type ContentPageRow } from "./content-page-columns.ts";
import { runTransaction } from "@service/shared/node";

type Tx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

export type { ContentPageRow };

/**
 * Writable values (column values, see record.ts); `parentName` names the parent page (null: top
 * level); a key left out keeps the column default on create and the stored value on update.
 */
export type ContentPageValues = Partial<Pick<typeof contentPages.$inferInsert, "name" | "displayName" | "order" | "zones">> & {
  parentName?: string | null;
};

/** Unique index of (chain_id, active_name): a name is used by at most one live page of a chain. */
const UNIQUE_NAME = "content_pages_unique_name_per_chain";

/**
 * Creates a page in chain `chainId`.
 * @returns the stored page
 * @throws ServiceError parameter_invalid (419) when the name is used by a live page of the chain,
 *   the parent names the page itself, or no live page of the chain has the parent's name; nothing
 *   is written then
 */
export async function insertContentPage(
  db: CoreDb,
  chainId: number,
  values: ContentPageValues & { name: string; lastUpdatedBy: number | null },
  now: Date,
): Promise<ContentPageRow> {
  const id = await translateDuplicate(values.name, () =>
    runTransaction(db, async (tx) => {
      await lockChain(tx, chainId);
      // The page does not exist yet, so its own name as parent would otherwise read as "unknown parent".
      if (values.parentName === values.name) throw ownParentError();
      const parentId = await parentIdOf(tx, chainId, values.parentName ?? null);
      const { parentName: _, ...columns } = values;
      const [res] = await tx.insert(contentPages).values({ ...columns, chainId, parentId, createdDate: now, lastModifiedDate: now });
      return Number(res.insertId);
    }),
  );
  return (await findContentPage(db, chainId, { id }))!;
}

/**
 * Updates the live page `id` of chain `chainId`; a key left out (undefined) stays unchanged.
 * @returns the page after the update, or null when no live page has that id in the chain
 * @throws ServiceError parameter_invalid (419) for a name used by another live page, an unknown
 *   parent, the page as its own parent, or a parent among its descendants; nothing is written then
 */
export async function updateContentPage(
  db: CoreDb,
  chainId: number,
  id: number,
  changes: ContentPageValues & { lastUpdatedBy: number | null },
  now: Date,
): Promise<ContentPageRow | null> {
  const found = await translateDuplicate(changes.name ?? "", () =>
    runTransaction(db, async (tx) => {
      await lockChain(tx, chainId);
      const pages = await livePages(tx, chainId);
      const current = pages.find((p) => p.id === id);
      if (!current) return false;
      const { parentName, ...columns } = changes;
      let parentId: number | null | undefined;
      if (parentName !== undefined) {
        // The page's new name as parent is the page itself, even before the rename is stored.
        if (parentName !== null && parentName === changes.name) throw ownParentError();
        parentId = await parentIdOf(tx, chainId, parentName);
        checkParent(pages, id, parentId);
      }
      await tx
        .update(contentPages)
        .set({ ...columns, ...(parentId !== undefined ? { parentId } : {}), lastModifiedDate: now })
        .where(eq(contentPages.id, id));
      return true;
    }),
  );
  return found ? findContentPage(db, chainId, { id }, { includeDeleted: true }) : null;
}

/**
 * Soft-deletes the live page `id` of chain `chainId` and all its descendants, in one transaction.
 * @param deletedBy admin user id recorded as last_updated_by, or null
 * @returns the deleted page, or null when no live page has that id in the chain
 */
export async function deleteContentPage(
  db: CoreDb,
  chainId: number,
  id: number,
  deletedBy: number | null,
  now: Date,
): Promise<ContentPageRow | null> {
  const found = await runTransaction(db, async (tx) => {
    await lockChain(tx, chainId);
    const pages = await livePages(tx, chainId);
    if (!pages.some((p) => p.id === id)) return false;
    await tx
      .update(contentPages)
      .set({ deleted: true, lastUpdatedBy: deletedBy, lastModifiedDate: now })
      .where(and(eq(contentPages.chainId, chainId), inArray(contentPages.id, [id, ...descendantsOf(pages, id)])));
    return true;
  });
  return found ? findContentPage(db, chainId, { id }, { includeDeleted: true }) : null;
}

/**
 * One page of chain `chainId` by id or name.
 * @returns the live page (with includeDeleted and an id, also a deleted one), or null
 */
export async function findContentPage(
  db: CoreDb,
  chainId: number,
  by: { id: number } | { name: string },
  opts: { includeDeleted?: boolean } = {},
): Promise<ContentPageRow | null> {
  const match = "id" in by ? eq(contentPages.id, by.id) : eq(contentPages.activeName, by.name);
  const live = opts.includeDeleted ? undefined : eq(contentPages.deleted, false);
  return findRow(db, contentPageColumns, [eq(contentPages.chainId, chainId), match, live]);
}

/**
 * One page of the chain's live pages and the total over all pages: filters and sort keys by the
 * page's storage mapping (record.ts); ties are broken by id in the same direction.
 */
export async function listContentPages(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: ContentPageRow[]; total: number }> {
  return listRows(db, contentPageColumns, [eq(contentPages.chainId, chainId), eq(contentPages.deleted, false)], q);
}

/** Serialises the chain's content-page writes (see the module comment). */
async function lockChain(tx: Tx, chainId: number): Promise<void> {
  await tx.select({ id: chains.id }).from(chains).where(eq(chains.id, chainId)).for("update");
}

async function livePages(tx: Tx, chainId: number): Promise<PageLink[]> {
  return tx
    .select({ id: contentPages.id, parentId: contentPages.parentId })
    .from(contentPages)
    .where(and(eq(contentPages.chainId, chainId), eq(contentPages.deleted, false)));
}

/**
 * The id of the live page named `name` in the chain; null for no parent.
 * @throws ServiceError parameter_invalid (419) when no live page of the chain has that name
 */
async function parentIdOf(tx: Tx, chainId: number, name: string | null): Promise<number | null> {
  if (name === null) return null;
  const [row] = await tx
    .select({ id: contentPages.id })
    .from(contentPages)
    .where(and(eq(contentPages.chainId, chainId), eq(contentPages.activeName, name)))
    .limit(1);
  if (!row) throw new ServiceError("parameter_invalid", `parent: no content page named "${name.slice(0, 64)}" in this chain.`);
  return row.id;
}

async function translateDuplicate<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isDuplicateKey(err, UNIQUE_NAME)) {
      throw new ServiceError("parameter_invalid", `name: "${name.slice(0, 64)}" is already used by a content page of this chain.`);
    }
    throw err;
  }
}
