/**
 * Content page in the Resources API (spec, "Content Page", "Resource-specific behaviour"): the
 * adapter between the generic engine and content-pages/repository.ts. The hierarchy rules
 * (parent by name, no self-parent, no cycle, delete with descendants) live in the repository and
 * content-pages/hierarchy.ts; this file maps properties to columns.
 *
 * Decisions where the spec is silent: a duplicate name (among the chain's live pages) is
 * parameter_invalid (419), like every other refused value of a Resources write; PUT follows the
 * engine's replacement rule, so a PUT without `parent` makes the page top-level and one without
 * `zones` clears them.
 */
import { contentPageResource } from "@service/shared/resources/content-page";
import {
  deleteContentPage,
  findContentPage,
  insertContentPage,
  listContentPages,
  updateContentPage,
  type ContentPageListQuery,
  type ContentPageRow,
  type ContentPageValues,
} from "../content-pages/repository.ts";
import { fromJsonText, toJsonText } from "../db/json-column.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceRecord } from "./render.ts";
import type { WriteValues } from "./write.ts";

const decl = contentPageResource;

/** The Content page adapter of the engine (default access: read, write, delete). */
export const contentPageAdapter: ResourceAdapter = {
  declaration: decl,

  async findOne(scope, by) {
    const key = by.property === "name" ? { name: String(by.value) } : { id: by.value as number };
    const row = await findContentPage(scope.db, scope.chainId, key);
    return row ? toRecord(row) : null;
  },

  async list(scope, q) {
    const filters: ContentPageListQuery["filters"] = {};
    if (q.filters.id !== undefined) filters.id = q.filters.id as number;
    if (q.filters.name !== undefined) filters.name = String(q.filters.name);
    const { rows, total } = await listContentPages(scope.db, scope.chainId, {
      filters,
      ...(q.sort ? { sort: q.sort.property as ContentPageListQuery["sort"] } : {}),
      order: q.sort?.order ?? q.order,
      limit: q.limit,
      offset: q.offset,
    });
    return { records: rows.map(toRecord), total };
  },

  async create(scope, values) {
    const columns = toColumns(values);
    const row = await insertContentPage(
      scope.db,
      scope.chainId,
      {
        name: columns.name!,
        displayName: columns.displayName ?? null,
        order: columns.order ?? 0,
        parentName: columns.parentName ?? null,
        zones: columns.zones ?? null,
        lastUpdatedBy: scope.actorAdminId,
      },
      scope.now,
    );
    return toRecord(row);
  },

  async update(scope, target, values) {
    const row = await updateContentPage(
      scope.db,
      scope.chainId,
      target.id as number,
      { ...toColumns(values), lastUpdatedBy: scope.actorAdminId },
      scope.now,
    );
    return row ? toRecord(row) : null;
  },

  async remove(scope, target) {
    const row = await deleteContentPage(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? toRecord(row) : null;
  },
};

/** A stored page as a resource record: `parent` is the parent's name, `zones` the parsed JSON. */
export function toRecord(row: ContentPageRow): ResourceRecord {
  return {
    deleted: row.deleted,
    display_name: row.displayName,
    id: row.id,
    last_modified_date: row.lastModifiedDate,
    name: row.name,
    order: row.order,
    parent: row.parentName,
    zones: fromJsonText(row.zones),
  };
}

/**
 * Validated write values as repository values; a property not sent stays absent.
 * @throws ServiceError parameter_invalid (419) when the zones are over 65535 bytes as JSON
 */
function toColumns(values: WriteValues): Partial<ContentPageValues> {
  const out: Partial<ContentPageValues> = {};
  if (values.name !== undefined) out.name = values.name as string;
  if (values.display_name !== undefined) out.displayName = values.display_name as string | null;
  if (values.order !== undefined) out.order = values.order as number;
  if (values.parent !== undefined) out.parentName = values.parent as string | null;
  if (values.zones !== undefined) out.zones = toJsonText(values.zones, "zones");
  return out;
}
