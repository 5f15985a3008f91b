/**
 * `POST /auth/add-tag` (the minimal home of tags, so that delete-tag has something to delete),
 * declared once: its parameters, errors and results, with the tag record (spec, "Other records
 * seen in internal call responses"). Like delete-tag, the tag calls are for admins only: user and
 * privileged authentication are not permitted.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { defineCall, param } from "./call.ts";
import { responseDateTime, text } from "./param-values.ts";

/** Most characters of a tag's value. */
export const TAG_VALUE_MAX = 255;
/** Most characters of a tag's model class. */
export const TAG_MODEL_CLASS_MAX = 64;
/** The model class of a tag when none is given. */
export const DEFAULT_TAG_MODEL_CLASS = "user";

const MODEL_CLASS = /^[a-z][a-z0-9_]*$/;

/** A model class: a lower-case name such as `user` (letters, digits, `_`), at most 64 characters. */
export function modelClassText() {
  return text(TAG_MODEL_CLASS_MAX)
    .refine((s) => MODEL_CLASS.test(s), { message: "must be a lower-case name such as user", params: { refusal: "format" } })
    .meta({ pattern: MODEL_CLASS.source });
}

/** The chain of a tag record. */
export const tagChainSchema = z.strictObject({
  email_address: z.string().nullable(),
  id: z.int(),
  name: z.string(),
  phone_number: z.string().nullable(),
});

/** The tag record (spec, "Other records seen in internal call responses"); datetimes per `X-Service-API-version`. */
export const tagRecordSchema = z.strictObject({
  active: z.boolean(),
  chain: tagChainSchema,
  created_date: responseDateTime,
  deleted: z.boolean(),
  id: z.int(),
  last_modified_date: responseDateTime,
  model_class: z.string(),
  value: z.string(),
});
export type TagRecord = z.infer<typeof tagRecordSchema>;

/** `results` of add-tag. */
export const addTagResultsSchema = z.strictObject({
  tag: tagRecordSchema,
  result_type: z.literal("add-tag"),
});
export type AddTagResults = z.infer<typeof addTagResultsSchema>;

/** The whole success body of add-tag. */
export const addTagResponseSchema = successEnvelope(addTagResultsSchema);

/** add-tag: creates an active tag of a chain (unknown parameters are ignored). */
export const addTagCall = defineCall({
  name: "add-tag",
  method: "POST",
  path: "/auth/add-tag",
  summary: "Create a tag",
  description: "Creates an active tag `value` for models of `model_class` (default user) in the chain. Admins with write access to the chain only.",
  params: {
    chain_id: param(z.int(), { missing: "http_vars_missing", invalid: "chain_id_invalid" }),
    value: param(text(TAG_VALUE_MAX), { missing: "parameter_missing", invalid: "parameter_invalid", length: "string_parameter_too_long" }),
    model_class: param(modelClassText().default(DEFAULT_TAG_MODEL_CLASS), {
      invalid: "parameter_invalid",
      length: "string_parameter_too_long",
      description: "the kind of object the tag is for",
    }),
  },
  errors: ["no_valid_session", "permission_denied_or_non_existent", "http_request_method_non_POST_not_allowed"],
  results: addTagResultsSchema,
});
