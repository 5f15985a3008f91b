/**
 * Business (branch store): spec, "Resources and their fields" -> "Business". One line per field;
 * the field table's L column is `level`, its flags the other options.
 *
 * Decisions where the spec is silent: deleted, deleted_by and last_updated_by (types and levels
 * "not shown") are read-only at level 2; deleted_by and last_updated_by are references to the
 * admin user (`{id}`), like on every other resource.
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

const nullableString = (max: number) => z.string().max(max).nullable();

export const businessResource = defineResource({
  name: "business",
  plural: "businesses",
  locationSearch: true,
  omitFor: { end_user: ["chain_member", "created_date", "deleted", "deleted_by", "last_modified_date", "last_updated_by"] },
  fields: z.object({
    address_1: field(nullableString(255), { level: 2 }),
    address_2: field(z.string().min(1).max(255).nullable(), { level: 2 }),
    address_3: field(nullableString(255), { level: 2 }),
    business_distance_km: field(z.number().nullable(), { level: 1, readOnly: true, description: "kilometres from the search point; present only with location search" }),
    chain: field(reference(), { level: 1, reference: "chain", filter: true, immutable: true }),
    chain_member: field(z.boolean().default(true), { level: 4, ops: ["post", "put", "patch"] }),
    country_code: field(z.string().length(2).regex(/^[A-Z]{2}$/).nullable(), { level: 2, filter: true, description: "ISO 3166-1 alpha-2" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, sort: true }),
    deleted: field(z.boolean(), { level: 2, readOnly: true }),
    deleted_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user", description: "admin who deleted it" }),
    id: field(z.int(), { level: 0, readOnly: true, filter: true, ops: ["get", "put", "patch", "delete"] }),
    is_shut_down: field(z.boolean().default(false), { level: 2, filter: true, description: "administratively shut down" }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user", description: "admin who last created, updated or deleted it" }),
    latitude: field(z.number().min(-90).max(90).nullable(), { level: 2 }),
    longitude: field(z.number().min(-180).max(180).nullable(), { level: 2 }),
    name: field(z.string().min(1).max(255), { level: 1, filter: true, fulltext: true, requiredOnPost: true, ops: ["post", "put", "patch"] }),
    owner_code: field(nullableString(64), { level: 1, identifier: true, filter: true, fulltext: true, requiredOnPost: true, ops: ["get", "post", "put", "patch", "delete"], description: "unique within a chain" }),
    phone_number: field(nullableString(32), { level: 2 }),
    postalcode: field(nullableString(20), { level: 2 }),
    region: field(nullableString(255), { level: 2, filter: true }),
    towncity: field(nullableString(255), { level: 2, filter: true }),
  }),
});

/** A business as the Resources API renders it at level 4 (with location search). */
export type Business = z.infer<typeof businessResource.fields>;
