/**
 * `POST /internal/add-user` (spec, "Internal call: add-user"), declared once: its parameters,
 * errors and results. Multipart/form-data, form-encoded or JSON, every parameter top-level.
 *
 * Creates a shopper of a chain, or with any `permission_*` parameter an admin user of the chain
 * with those access levels. Headers: `X-Service-App-Hostname` (with a privileged token: required,
 * an app of the token's chain; with an admin session: refused, 419); `X-Service-Request`, a JSON
 * object whose `client_channel` becomes the user's signup_channel (`mobile`, `mobile:ios`,
 * `mobile:android`, `mobile:web`, `pos`, `store`, `import`; any other value `unknown:<value>`).
 *
 * `if_unmodified_since` (with `update_if_exists`; not part of the spec's parameter table, an
 * extension for the webshop sync, handbook "Sync between the webshop and the platform": "the
 * newer change wins") makes the update conditional, as HTTP's If-Unmodified-Since does: the
 * existing user is updated only when its `last_modified_date` is not later than the given moment.
 * Otherwise nothing is written and the answer is the user as stored, with `precondition_failed`
 * true, so the caller can take the platform's newer version instead. Check and write happen at
 * once, in the user's UPDATE (or, when the row changed since it was read, under its lock), so two
 * racing conditional writers never both win.
 * A new user is created as usual (there is nothing to be newer than).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { referringUserSchema, userInfoSchema } from "../user-info.ts";
import { defineCall, param } from "./call.ts";
import { dateTimeText } from "./param-values.ts";
import { userFieldParams } from "./user-params.ts";

/** The admin access levels add-user can give, by parameter (spec: "Admin permission parameters"). */
export const PERMISSION_PARAMS = {
  permission_read: "read",
  permission_write: "write",
  permission_delete: "delete",
  permission_assign: "assign",
  permission_campaign: "campaign",
  permission_campaign_enable: "campaign_enable",
  permission_analytics: "analytics",
  permission_export: "export",
  permission_segment_query: "segment_query",
  permission_super_user: "super_user",
} as const;
export type PermissionParam = keyof typeof PERMISSION_PARAMS;

/** The allowed `client_channel` values of `X-Service-Request`. */
export const CLIENT_CHANNELS = ["mobile", "mobile:ios", "mobile:android", "mobile:web", "pos", "store", "import"] as const;

/** The access levels of an admin user add-user created or updated. */
export const adminPermissionsSchema = z.strictObject(
  Object.fromEntries(Object.values(PERMISSION_PARAMS).map((level) => [level, z.boolean()])) as Record<(typeof PERMISSION_PARAMS)[PermissionParam], z.ZodBoolean>,
);

/** `results` of add-user. */
export const addUserResultsSchema = z.strictObject({
  user: userInfoSchema,
  /** `new` when created, `registered` when update_if_exists updated an existing user */
  user_type: z.enum(["new", "registered"]),
  updated_existing_user: z.boolean(),
  /** the owner of the referral_code given, else null */
  referring_user: referringUserSchema.nullable(),
  /**
   * only when `if_unmodified_since` was given: true when the existing user was modified after it,
   * so nothing was written and `user` is the user as stored (`updated_existing_user` false,
   * `user_type` `registered`); false when the user was created or updated
   */
  precondition_failed: z.boolean().meta({
    description: "only with if_unmodified_since: true when the user was modified after it (nothing written; user is the user as stored)",
  }).optional(),
  /** only for an admin user (permission_* parameters): the access levels it holds on the chain */
  permissions: adminPermissionsSchema.optional(),
  result_type: z.literal("add-user"),
});
export type AddUserResults = z.infer<typeof addUserResultsSchema>;

/** The whole success body of add-user. */
export const addUserResponseSchema = successEnvelope(addUserResultsSchema);

const permissionParams = Object.fromEntries(
  Object.entries(PERMISSION_PARAMS).map(([name, level]) => [
    name,
    param(z.boolean(), { invalid: "parameter_supplied_not_boolean", description: `admin user: the ${level} access level` }).optional(),
  ]),
) as Record<PermissionParam, z.ZodOptional<z.ZodBoolean>>;

/** add-user; parameters in the order they are checked (unknown parameters are ignored). */
export const addUserCall = defineCall({
  name: "add-user",
  method: "POST",
  path: "/internal/add-user",
  summary: "Create a user (or update it with update_if_exists), or an admin user",
  description:
    "Creates a shopper of the chain. A user with the same username, member_number or authentication_point_identifier " +
    "is user_already_exists unless update_if_exists is true, which updates that user instead (an empty parameter clears " +
    "its value); several such users are too_many_duplicate_objects. With any permission_* parameter an admin user of the " +
    "chain is created instead (super-user access and a password needed). Admins need assign access and chain_id; a " +
    "privileged token needs X-Service-App-Hostname naming an app of its chain. With if_unmodified_since (only with " +
    "update_if_exists, not for admin users) an existing user modified after that moment is left as it is: nothing is " +
    "written and the answer is that user with precondition_failed true (the newer change wins; race-safe).",
  params: {
    chain_id: param(z.int(), { invalid: "chain_id_invalid", description: "required with an admin session (3 http_vars_missing); with a token the app's chain" }).optional(),
    update_if_exists: param(z.boolean().default(false), { invalid: "parameter_supplied_not_boolean", description: "update the user with the same username, member_number or authentication_point_identifier" }),
    if_unmodified_since: param(dateTimeText(), {
      invalid: "parameter_invalid",
      description: "with update_if_exists (else 419): update the existing user only when its last_modified_date is not later than " +
        "this moment (RFC 3339, or YYYY-MM-DD HH:MM:SS in UTC); otherwise nothing is written and the answer is the user as " +
        "stored with precondition_failed true. A new user is created as usual.",
    }).optional(),
    ...userFieldParams,
    ...permissionParams,
  },
  errors: [
    "no_valid_session", "access_token_invalid", "http_vars_missing", "permission_denied_or_non_existent", "invalid_phone_number",
    "phone_number_already_exists", "postalcode_invalid", "user_already_exists", "too_many_duplicate_objects",
    "http_request_method_non_POST_not_allowed",
  ],
  results: addUserResultsSchema,
});
