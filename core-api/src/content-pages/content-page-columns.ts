/**
 * Content page rows <-> Resources records (spec, "Content Page"): the page's storage mapping,
 * derived from the declaration by the rules of db/resource-columns.ts (zones are JSON text) and
 * checked when this module loads. `parent` is the parent's name, read with the row and written as
 * a name the repository resolves to the parent's id (content-pages/content-page-repository.ts).
 */
import { contentPageResource } from "@service/shared/resources/content-page";
import { sql } from "drizzle-orm";
import { qualified, resourceColumns, type ResourceRecord, type RowOf } from "../db/resource-columns.ts";
import { contentPages } from "../db/schema.ts";

/** What a page row is read with: its parent's name (null for a top-level page). */
const REFERRED = {
  parentName: sql<string | null>`(SELECT p.name FROM content_pages p WHERE p.id = ${qualified(contentPages.parentId)})`,
};

/** A stored page with its parent's name, as `contentPageColumns.selection` reads it. */
export type ContentPageRow = RowOf<typeof contentPages, typeof REFERRED>;

/** The page's storage mapping. */
export const contentPageColumns = resourceColumns(contentPageResource, contentPages, {
  select: REFERRED,
  exceptions: {
    parent: {
      column: REFERRED.parentName,
      read: (row) => row.parentName,
      write: (value) => ({ parentName: value }),
      note: "the parent's name; the repository stores the id of the live page of that name",
    },
  },
});

/** A stored page as a resource record. */
export function contentPageRecord(row: ContentPageRow): ResourceRecord {
  return contentPageColumns.toRecord(row);
}
