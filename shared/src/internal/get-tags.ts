/**
 * `GET /auth/get-tags?chain_id=`, declared once: its parameters, errors and results (`tags`, each
 * the record of `add-tag.ts`). Deleted tags are not listed.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { modelClassText, tagRecordSchema } from "./add-tag.ts";
import { defineCall, param } from "./call.ts";

/** Page size when `limit` is absent, and the largest accepted. */
export const GET_TAGS_MAX_LIMIT = 500;

/** `results` of get-tags. */
export const getTagsResultsSchema = z.strictObject({
  tags: z.array(tagRecordSchema),
  result_type: z.literal("get-tags"),
});
export type GetTagsResults = z.infer<typeof getTagsResultsSchema>;

/** The whole success body of get-tags. */
export const getTagsResponseSchema = successEnvelope(getTagsResultsSchema);

const NUMBER = { invalid: "parameter_invalid" } as const;

/** get-tags: the chain's tags that are not deleted, oldest first (unknown parameters are ignored). */
export const getTagsCall = defineCall({
  name: "get-tags",
  method: "GET",
  path: "/auth/get-tags",
  summary: "The tags of a chain",
  description: "The chain's tags that are not deleted, in the order they were created, optionally of one model_class. Admins with read access to the chain only.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    model_class: param(modelClassText(), { invalid: "parameter_invalid", length: "string_parameter_too_long", description: "only tags of this model class" }).optional(),
    limit: param(z.int().min(1).max(GET_TAGS_MAX_LIMIT).default(GET_TAGS_MAX_LIMIT), { ...NUMBER, description: "page size" }),
    offset: param(z.int().min(0).default(0), { ...NUMBER, description: "tags to skip" }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "http_request_method_non_GET_not_allowed"],
  results: getTagsResultsSchema,
});
