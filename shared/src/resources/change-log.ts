/**
 * Change log entry (spec, "Change log entry (resource_type model-change-logs)", "Change log call",
 * "Versioning"): one change of one model instance, served by
 * `GET /resources/{resource}/{id}/change_log` (campaign only for now).
 *
 * Decisions where the spec is silent: the table has no L column and an entry is a flat record, so
 * every field is level 0 (an entry is always rendered whole); only created_date and
 * last_modified_date are sort keys; there are no filters and no text search.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { defineResource, field } from "./meta.ts";

/** `result_type` of the change log call. */
export const CHANGE_LOG_RESULT_TYPE = "model-change-logs";

/** A value in a diff, in the field's native type as recorded (datetimes as RFC 3339 UTC text). */
export const diffValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** `{field: {from, to}}` of the fields that changed; either side may be null. */
export const changeDiffSchema = z.record(z.string(), z.strictObject({ from: diffValueSchema, to: diffValueSchema }));
export type ChangeDiff = z.infer<typeof changeDiffSchema>;

/** The admin who made the change before version 1.6.8; from 1.6.8 only the integer id. */
export const changedByAdminSchema = z.strictObject({
  id: z.int(),
  firstname: z.string().nullable(),
  lastname: z.string().nullable(),
});

export const changeLogEntryResource = defineResource({
  name: "model-change-log",
  plural: CHANGE_LOG_RESULT_TYPE,
  fields: z.object({
    id: field(z.int(), { level: 0, readOnly: true, description: "change log entry id" }),
    model_class: field(z.string(), { level: 0, readOnly: true, description: "class name of the modified resource, for campaigns `Campaign`" }),
    model_id: field(z.int(), { level: 0, readOnly: true, description: "id of the modified resource" }),
    changed_by: field(z.union([z.int(), changedByAdminSchema]).nullable(), {
      level: 0,
      readOnly: true,
      description: "admin who made the change: `{id, firstname, lastname}` before API version 1.6.8, the integer admin user id from 1.6.8",
    }),
    change_endpoint: field(z.string().nullable(), { level: 0, readOnly: true, description: "canonical API path of the change, `internal/<call-name>`" }),
    diff: field(changeDiffSchema, { level: 0, readOnly: true, description: "per changed field `{from, to}`, kept as recorded at the time, whatever the request version" }),
    created_date: field(z.iso.datetime(), { level: 0, readOnly: true, sort: true }),
    last_modified_date: field(z.iso.datetime(), { level: 0, readOnly: true, sort: true }),
  }),
});

/** A datetime as formatted for the request's API version (RFC 3339 UTC from 1.6.8, `YYYY-MM-DD HH:MM:SS` before). */
const responseDateTime = z.string().regex(/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\dZ?$/, "must be a datetime");

/** A change log entry as the change log call returns it. */
export const changeLogEntrySchema = z.strictObject({
  ...changeLogEntryResource.fields.shape,
  created_date: responseDateTime,
  last_modified_date: responseDateTime,
});
export type ChangeLogEntry = z.infer<typeof changeLogEntrySchema>;

/** `results` of the change log call. */
export const changeLogResultsSchema = z.strictObject({
  result_type: z.literal(CHANGE_LOG_RESULT_TYPE),
  offset: z.int().nonnegative(),
  limit: z.int().min(1).max(500),
  total_count: z.int().nonnegative(),
  resources: z.array(changeLogEntrySchema),
});
export type ChangeLogResults = z.infer<typeof changeLogResultsSchema>;

/** The whole success body of the change log call. */
export const changeLogResponseSchema = successEnvelope(changeLogResultsSchema);
