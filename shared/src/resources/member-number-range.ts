/**
 * MemberNumberRange (handbook, "The user": member numbers; not in the spec's field tables): a
 * range of member numbers of the chain in X-Service-Chain-ID. Super users only, for reads too.
 *
 * - `kind`: `generated` ranges hand out the next free number to a user added without
 *   member_number (counting up from `first`, atomically: no two users ever get one); `custom`
 *   ranges only admit numbers given by the caller (and give the chain's dummy usernames their
 *   member-number form). A given member_number must lie in one of the chain's live ranges.
 * - `first` and `last`: decimal strings of 1 to 18 digits without leading zeros, `first` <=
 *   `last`; the live ranges of a chain never overlap (else parameter_invalid, 419).
 * - Deleting a range stops it from handing out or admitting numbers; users keep theirs.
 * - A chain without a live generated range gets DEFAULT_GENERATED_RANGE as one the first time
 *   it hands out a number (core-api users/member-numbers.ts): member numbers are always
 *   generated unless given. The demo chain starts with it.
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

/** The kinds of range. */
export const MEMBER_NUMBER_RANGE_KINDS = ["generated", "custom"] as const;
export type MemberNumberRangeKind = (typeof MEMBER_NUMBER_RANGE_KINDS)[number];

/** A range bound: 1 to 18 decimal digits, no leading zero (it fits a BIGINT). */
export const RANGE_BOUND = /^(?:0|[1-9]\d{0,17})$/;

/**
 * The generated range a chain without one hands out numbers from: 8-digit numbers, 10000000 to
 * 99999999 (created as a real range, so it can be read, changed or deleted like any other).
 */
export const DEFAULT_GENERATED_RANGE = { first: 10_000_000n, last: 99_999_999n } as const;

const bound = () => z.string().regex(RANGE_BOUND, "must be 1 to 18 decimal digits without leading zeros");

export const memberNumberRangeResource = defineResource({
  name: "member_number_range",
  plural: "member_number_ranges",
  description: "A range of member numbers of the chain in X-Service-Chain-ID: generated ones are handed out to new users in order, custom ones admit numbers given to add-user. Super users only.",
  fields: z.object({
    chain: field(reference(), { level: 1, readOnly: true, immutable: true, reference: "chain", description: "set from X-Service-Chain-ID" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    deleted: field(z.boolean(), { level: 1, readOnly: true }),
    first: field(bound(), { level: 1, requiredOnPost: true, sort: true, description: "lowest number of the range (decimal string)" }),
    id: field(z.int(), { level: 0, readOnly: true, identifier: true, filter: true, immutable: true, ops: ["get", "put", "patch", "delete"] }),
    kind: field(z.enum(MEMBER_NUMBER_RANGE_KINDS), { level: 1, requiredOnPost: true, immutable: true, filter: true, sort: true, ops: ["post"] }),
    last: field(bound(), { level: 1, requiredOnPost: true, sort: true, description: "highest number of the range (decimal string), >= first" }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user" }),
  }),
});

/** A member-number range as the Resources API renders it at level 2. */
export type MemberNumberRange = z.infer<typeof memberNumberRangeResource.fields>;
