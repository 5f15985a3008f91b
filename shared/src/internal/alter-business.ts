/**
 * Contract of `PUT /internal/alter-business` (spec, "Internal call: alter-business"): its params
 * and its results.
 *
 * Every parameter but business_id is optional: an absent parameter leaves the field unchanged, an
 * empty text clears a nullable field (name cannot be cleared). The defaults the spec names
 * (is_shut_down false, programme_opted_in true) are the values a new business starts with; alter
 * does not reset absent fields to them.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { internalBusinessSchema } from "./add-business.ts";
import { ALTER_BUSINESS_TEXT_PARAMS as T } from "./business-params.ts";
import { businessFieldParams } from "./business-fields.ts";
import { integerValue, textValue } from "./param-values.ts";

/** The business record of alter-business: add-business's keys without the six the spec leaves out. */
export const alteredBusinessSchema = internalBusinessSchema.omit({
  deleted: true,
  deleted_by: true,
  format: true,
  is_shut_down: true,
  phone_number: true,
  programme_opted_in: true,
});
export type AlteredBusiness = z.infer<typeof alteredBusinessSchema>;

/** Parameters of alter-business (form, multipart or JSON; unknown parameters are ignored). */
export const alterBusinessParamsSchema = z.object({
  business_id: integerValue,
  name: textValue(T.name).optional(),
  /** the google_place_id of the record (`google_place_id` is accepted too) */
  place_id: textValue(T.place_id).optional(),
  google_place_id: textValue(T.place_id).optional(),
  review_url: textValue(T.review_url).optional(),
  ...businessFieldParams,
});
export type AlterBusinessParams = z.input<typeof alterBusinessParamsSchema>;

/** `results` of alter-business. */
export const alterBusinessResultsSchema = z.strictObject({
  business: alteredBusinessSchema,
  result_type: z.literal("alter-business"),
});
export type AlterBusinessResults = z.infer<typeof alterBusinessResultsSchema>;

/** The whole success body of alter-business. */
export const alterBusinessResponseSchema = successEnvelope(alterBusinessResultsSchema);
