/**
 * Content page: spec, "Resources and their fields" -> "Content Page". One line per field; the
 * field table's L column is `level`, its flags the other options.
 *
 * Decisions where the spec is silent:
 * - `deleted` has no ops in the table: it is read-only (a page is deleted with DELETE only).
 * - `parent` is the name of a live page of the same chain (1-255 characters, like `name`).
 * - A zone object (keys named by the spec, types "not shown") is a closed object: unknown keys are
 *   refused, omitted keys get the defaults below, so every stored zone has all eight keys:
 *   title (string <= 255 or null, default null), show_title (boolean, default true),
 *   mode / layout_type / orientation (string <= 64 or null, default null; values not shown, so
 *   free text), tag_filter / type_filter (arrays of strings <= 255, default []), items (array of
 *   objects with at least `type` (string 1-64, for example `campaign`) and integer `id`; other
 *   keys of an item are kept as given, default []).
 * - The zones of one page, stored as JSON text, are at most 65535 bytes (core-api refuses more
 *   with parameter_invalid).
 */
import { z } from "zod";
import { defineResource, field } from "./meta.ts";

const label = z.string().max(64).nullable().default(null);
const filterList = z.array(z.string().max(255)).default([]);

/** One item of a zone: what the zone shows, for example `{"type": "campaign", "id": 12}`. */
export const zoneItemSchema = z.looseObject({
  type: z.string().min(1).max(64),
  id: z.int(),
});

/** A zone of a content page (spec: title, show_title, mode, tag_filter, type_filter, layout_type, orientation, items). */
export const zoneSchema = z.strictObject({
  title: z.string().max(255).nullable().default(null),
  show_title: z.boolean().default(true),
  mode: label,
  tag_filter: filterList,
  type_filter: filterList,
  layout_type: label,
  orientation: label,
  items: z.array(zoneItemSchema).default([]),
});

export const contentPageResource = defineResource({
  name: "content-page",
  plural: "content-pages",
  omitFor: { end_user: ["deleted"] },
  description:
    "A page that organises campaigns into zones; pages form a hierarchy per chain via `parent` (the parent's name). " +
    "A page cannot be its own parent or form a cycle; deleting a page also deletes all its descendants.",
  fields: z.object({
    deleted: field(z.boolean(), { level: 1, readOnly: true }),
    display_name: field(z.string().max(255).nullable(), { level: 0, ops: ["post", "put", "patch"] }),
    id: field(z.int(), { level: 0, readOnly: true, filter: true, sort: true, ops: ["get", "put", "patch", "delete"] }),
    last_modified_date: field(z.iso.datetime(), { level: 0, readOnly: true, immutable: true, sort: true }),
    name: field(z.string().min(1).max(255), {
      level: 0,
      identifier: true,
      filter: true,
      sort: true,
      requiredOnPost: true,
      ops: ["post", "put", "patch", "get"],
      description: "unique among the chain's live pages",
    }),
    order: field(z.int32().default(0), { level: 0, sort: true, ops: ["post", "put", "patch"] }),
    parent: field(z.string().min(1).max(255).nullable(), {
      level: 0,
      ops: ["post", "put", "patch"],
      description: "name of the parent content page in the same chain; null makes a top-level page",
    }),
    zones: field(z.array(zoneSchema).nullable(), { level: 1, ops: ["post", "put", "patch"], description: "replaced in full on update" }),
  }),
});

/** A content page as the Resources API renders it at level 1 and above. */
export type ContentPage = z.infer<typeof contentPageResource.fields>;
/** A zone as stored and rendered (every key present). */
export type Zone = z.infer<typeof zoneSchema>;
