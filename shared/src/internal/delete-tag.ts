/**
 * `DELETE /auth/delete-tag?id=` (spec, "Internal call: delete-tag"), declared once: its
 * parameter, errors and results. The tag is kept with `active` false and `deleted` true; user and
 * privileged authentication are not permitted.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { tagRecordSchema } from "./add-tag.ts";
import { defineCall, param } from "./call.ts";

/** `results` of delete-tag: the tag as stored after the call. */
export const deleteTagResultsSchema = z.strictObject({
  tag: tagRecordSchema,
  result_type: z.literal("delete-tag"),
});
export type DeleteTagResults = z.infer<typeof deleteTagResultsSchema>;

/** The whole success body of delete-tag. */
export const deleteTagResponseSchema = successEnvelope(deleteTagResultsSchema);

/** delete-tag: marks the tag `id` inactive and deleted (unknown parameters are ignored). */
export const deleteTagCall = defineCall({
  name: "delete-tag",
  method: "DELETE",
  path: "/auth/delete-tag",
  summary: "Delete a tag",
  description:
    "Marks the tag id inactive and deleted. Admins with DELETE access to the tag's chain only (user and privileged " +
    "authentication are not permitted); an unknown or already deleted tag and one of another chain answer alike (68).",
  params: { id: param(z.int(), { missing: "parameter_missing", invalid: "parameter_invalid" }) },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "http_request_method_non_DELETE_not_allowed"],
  results: deleteTagResultsSchema,
});
