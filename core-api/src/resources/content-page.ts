/**
 * Content page in the Resources API (spec, "Content Page", "Resource-specific behaviour"): the
 * adapter between the generic engine and content-pages/content-page-repository.ts. The hierarchy rules
 * (parent by name, no self-parent, no cycle, delete with descendants) live in the repository and
 * content-pages/hierarchy.ts; property <-> column mapping is the page's storage mapping
 * (content-pages/content-page-columns.ts), derived from the declaration and checked when it loads.
 *
 * Decisions where the spec is silent: a duplicate name (among the chain's live pages) is
 * parameter_invalid (419), like every other refused value of a Resources write; PUT follows the
 * engine's replacement rule, so a PUT without `parent` makes the page top-level and one without
 * `zones` clears them.
 */
import { contentPageResource } from "@service/shared/resources/content-page";
import { contentPageColumns, contentPageRecord } from "../content-pages/content-page-columns.ts";
import {
  deleteContentPage,
  findContentPage,
  insertContentPage,
  listContentPages,
  updateContentPage,
  type ContentPageValues,
} from "../content-pages/content-page-repository.ts";
import type { ResourceAdapter } from "./engine.ts";

/** The Content page adapter of the engine (default access: read, write, delete). */
export const contentPageAdapter: ResourceAdapter = {
  declaration: contentPageResource,

  async findOne(scope, by) {
    const key = by.property === "name" ? { name: String(by.value) } : { id: by.value as number };
    const row = await findContentPage(scope.db, scope.chainId, key);
    return row ? contentPageRecord(row) : null;
  },

  async list(scope, q) {
    const { rows, total } = await listContentPages(scope.db, scope.chainId, q);
    return { records: rows.map(contentPageRecord), total };
  },

  async create(scope, values) {
    // name is required on POST (the engine refuses a body without it).
    const columns = contentPageColumns.toColumns(values) as ContentPageValues & { name: string };
    const row = await insertContentPage(scope.db, scope.chainId, { ...columns, lastUpdatedBy: scope.actorAdminId }, scope.now);
    return contentPageRecord(row);
  },

  async update(scope, target, values) {
    const changes = { ...(contentPageColumns.toColumns(values) as ContentPageValues), lastUpdatedBy: scope.actorAdminId };
    const row = await updateContentPage(scope.db, scope.chainId, target.id as number, changes, scope.now);
    return row ? contentPageRecord(row) : null;
  },

  async remove(scope, target) {
    const row = await deleteContentPage(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? contentPageRecord(row) : null;
  },
};
