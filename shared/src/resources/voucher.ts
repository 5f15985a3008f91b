/**
 * Voucher: spec, "Resources and their fields" -> "Voucher", "States and transitions" and
 * "Resource-specific behaviour". One line per field (the base object the engine reads its
 * per-field metadata from), plus `voucherTypeRules`: the discriminated union on `type` saying
 * which fields apply to which voucher type, checked on the whole voucher after every write.
 *
 * Decisions where the spec is silent or contradicts itself:
 * - Which fields apply to which type (spec: "not shown"): `basket` and `basket_fixed_unit` need
 *   `amount` (> 0); `basket_pct` needs `discount_ratio` (0..1); `honour` needs `honour_code`.
 *   `amount_redeemed` (>= 0, at most `amount` where there is one) belongs to the three basket
 *   types. A field that does not apply to the type must be null or absent.
 * - `type`, `campaign` and `user` are not null without a default, so they are required on POST
 *   like the req-post fields expiry_date and status.
 * - `discount_ratio` is marked RO but lists ops post, put, patch: the ops win, since a
 *   `basket_pct` voucher cannot exist without its ratio.
 * - `expiry_date` and `locked_until` accept RFC 3339 (with Z or an offset) and
 *   `YYYY-MM-DD HH:MM:SS` (UTC), the two forms responses use; expiry_date null never expires;
 *   `locked_until` defaults to the creation time (not locked).
 * - `redeemed_date` and `db_redeemed_date` are null until the voucher is redeemed.
 * - `creating_user` is the admin user who created the voucher, rendered `{"id": n}` as
 *   `last_updated_by` renders admins; null for a voucher a privileged token created.
 */
import { z } from "zod";
import { parseDateTime } from "../text-values.ts";
import { defineResource, field, reference } from "./meta.ts";

export const VOUCHER_TYPES = ["basket", "basket_pct", "honour", "basket_fixed_unit"] as const;
export type VoucherType = (typeof VOUCHER_TYPES)[number];

/** In lifecycle order: a voucher only moves forward (see STATUS_RULES). */
export const VOUCHER_STATUSES = ["generated", "claimed", "redeemed"] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

/** The voucher key is exactly this many characters (spec, "Limits"). */
export const VOUCHER_KEY_LENGTH = 64;

const STATUS_RULES =
  "Status moves forward only: generated -> claimed -> redeemed (claiming may be skipped); sending the current " +
  "status again changes nothing. A redeemed voucher's status never changes again: any other status gives 419 " +
  "parameter_invalid and nothing is written. Setting status redeemed sets redeemed_date and db_redeemed_date.";

/**
 * Reads a datetime written to the API: RFC 3339 (`2026-11-21T10:00:00Z`, `...+02:00`, with or
 * without fractional seconds) or `YYYY-MM-DD HH:MM:SS` taken as UTC. Years 1000-9999 only (the
 * range a MySQL DATETIME stores). The one datetime rule of both API families (text-values.ts).
 * @returns the instant, or null when the text is neither form or names no real calendar day
 */
export const parseDateTimeInput = parseDateTime;

/** A writable datetime: a string `parseDateTimeInput` accepts (schema: string, format date-time). */
const dateTimeInput = () =>
  z
    .string()
    .refine((s) => parseDateTimeInput(s) !== null, "expected an RFC 3339 datetime or YYYY-MM-DD HH:MM:SS (UTC)")
    .meta({ format: "date-time" });

const nullableString = (max: number) => z.string().max(max).nullable();

export const voucherResource = defineResource({
  name: "voucher",
  plural: "vouchers",
  description:
    "A digital entitlement redeemable for discounts or rewards, identified by id or key. " +
    `${STATUS_RULES} DELETE soft-deletes: a deleted voucher is resource_not_found (544) afterwards and cannot be undeleted.`,
  omitFor: { end_user: ["creating_user", "db_redeemed_date", "deleted", "user"] },
  fields: z.object({
    amount: field(z.number().nullable(), { level: 1, ops: ["post", "put", "patch"], description: "required (> 0) for basket and basket_fixed_unit; null otherwise" }),
    amount_redeemed: field(z.number().nullable(), { level: 2, ops: ["post", "put", "patch"], description: "basket types only; >= 0 and at most amount" }),
    basket: field(reference().nullable(), { level: 2, immutable: true, reference: "basket", description: "basket that redeemed the voucher" }),
    basket_owner_code_exclusive: field(nullableString(255), { level: 2, ops: ["post", "put", "patch"], description: "if set, a locked voucher can only be redeemed with this retailer basket code" }),
    campaign: field(reference(), { level: 1, filter: true, sort: true, immutable: true, requiredOnPost: true, ops: ["post", "get"], reference: "campaign", description: "a campaign of the header chain" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    creating_user: field(reference().nullable(), { level: 2, filter: true, immutable: true, ops: ["get", "delete"], reference: "admin_user", description: "admin user who created the voucher; null when a privileged token created it" }),
    currency: field(reference().nullable(), { level: 2, immutable: true, reference: "currency" }),
    db_redeemed_date: field(z.iso.datetime().nullable(), { level: 2, readOnly: true, immutable: true, description: "redeemed date as stored" }),
    deleted: field(z.boolean(), { level: 1, ops: ["get"], description: "once deleted cannot be undeleted" }),
    description: field(nullableString(4096), { level: 2 }),
    discount_ratio: field(z.number().min(0).max(1).nullable(), { level: 2, ops: ["post", "put", "patch"], description: "required for basket_pct; null otherwise" }),
    expiry_date: field(dateTimeInput().nullable(), { level: 1, sort: true, requiredOnPost: true, ops: ["post", "put", "patch", "get"], description: "null: never expires" }),
    generating_return_transaction: field(reference().nullable(), { level: 2, immutable: true, reference: "transaction" }),
    honour_code: field(nullableString(255), { level: 2, ops: ["post", "put", "patch"], description: "required for honour; null otherwise" }),
    id: field(z.int(), { level: 0, readOnly: true, filter: true, sort: true, ops: ["get", "put", "patch", "delete"] }),
    image_url: field(nullableString(4096), { level: 2 }),
    key: field(z.string().length(VOUCHER_KEY_LENGTH), { level: 1, readOnly: true, identifier: true, filter: true, immutable: true, ops: ["get", "delete"], description: "generated by the service: 64 random base62 characters" }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    locked_until: field(dateTimeInput(), { level: 2, immutable: true, description: "defaults to the creation time" }),
    locking_code: field(nullableString(255), { level: 2, ops: ["post", "put", "patch"] }),
    notes: field(nullableString(4096), { level: 2 }),
    parent_voucher: field(reference().nullable(), { level: 2, filter: true, immutable: true, ops: ["get"], reference: "voucher", description: "voucher this one replaces" }),
    redeemed_date: field(z.iso.datetime().nullable(), { level: 2, readOnly: true, immutable: true }),
    redemption_exclusive_business: field(reference().nullable(), { level: 2, reference: "business", description: "only business where redeemable; a live business of the chain" }),
    platform_discount_code: field(nullableString(128), { level: 2 }),
    platform_discount_code_id: field(nullableString(128), { level: 2 }),
    platform_price_rule_id: field(z.int().nullable(), { level: 2 }),
    status: field(z.enum(VOUCHER_STATUSES), { level: 1, filter: true, sort: true, requiredOnPost: true, ops: ["post", "put", "patch", "get", "delete"], description: STATUS_RULES }),
    task: field(reference().nullable(), { level: 2, immutable: true, reference: "task", description: "task that caused creation" }),
    text: field(nullableString(255), { level: 2, ops: ["post", "put", "patch"] }),
    third_party_id: field(z.int().nullable(), { level: 2, readOnly: true }),
    title: field(nullableString(255), { level: 2, ops: ["post", "put", "patch"] }),
    type: field(z.enum(VOUCHER_TYPES), { level: 1, filter: true, immutable: true, requiredOnPost: true, ops: ["post", "get"] }),
    user: field(reference(), { level: 1, filter: true, sort: true, immutable: true, requiredOnPost: true, ops: ["post", "get", "delete"], reference: "user", description: "owner of the voucher; a user of the header chain" }),
  }),
});

/** A voucher as the Resources API renders it at level 4 (admin). */
export type Voucher = z.infer<typeof voucherResource.fields>;

const absent = z.null().optional();
const redeemedAmount = z.number().min(0).nullable().optional();

/** A fixed amount off the basket: `amount` is what the voucher is worth. */
const fixedAmount = <T extends "basket" | "basket_fixed_unit">(type: T) =>
  z
    .object({ type: z.literal(type), amount: z.number().positive(), amount_redeemed: redeemedAmount, discount_ratio: absent, honour_code: absent })
    .refine((v) => v.amount_redeemed == null || v.amount_redeemed <= v.amount, {
      path: ["amount_redeemed"],
      message: "amount_redeemed cannot exceed amount",
    });

/**
 * Which fields apply to which voucher type (see the decisions above). Validates a whole voucher
 * (stored values merged with the write); fields not named here are validated by their own field
 * schema only.
 */
export const voucherTypeRules = z.discriminatedUnion("type", [
  fixedAmount("basket"),
  z.object({ type: z.literal("basket_pct"), discount_ratio: z.number().min(0).max(1), amount: absent, amount_redeemed: redeemedAmount, honour_code: absent }),
  z.object({ type: z.literal("honour"), honour_code: z.string().min(1).max(255), amount: absent, amount_redeemed: absent, discount_ratio: absent }),
  fixedAmount("basket_fixed_unit"),
]);

/** The type-specific fields of a voucher, by type. */
export type VoucherTypeFields = z.infer<typeof voucherTypeRules>;
