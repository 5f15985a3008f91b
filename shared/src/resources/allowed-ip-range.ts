/**
 * AllowedIpRange: spec, "Resources and their fields" -> "AllowedIpRange". A permitted CIDR range
 * for admin logins to a chain. One line per field; the field table's L column is `level`, its
 * flags the other options.
 *
 * Decisions where the spec is silent:
 * - `cidr` is validated and normalised by the core API (core-api/src/ip-ranges/cidr.ts): IPv4 or
 *   IPv6, stored and rendered as the network address in canonical form (`192.168.1.77/24` ->
 *   `192.168.1.0/24`, IPv6 compressed lower case); a bare address means that one address (/32 or
 *   /128). It is also the identifier: `?cidr=` and the `cidr` filter match the normalised form of
 *   the value given.
 * - One live range per cidr and chain: a second one is refused with parameter_invalid (419).
 * - `last_updated_by` is a reference to the admin user (`{id}`).
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

export const allowedIpRangeResource = defineResource({
  name: "allowed_ip_range",
  plural: "allowed_ip_ranges",
  description:
    "A permitted CIDR range for admin login requests to the chain in X-Service-Chain-ID. Every write needs super-user access.",
  fields: z.object({
    chain: field(reference(), { level: 1, readOnly: true, immutable: true, reference: "chain", description: "set from X-Service-Chain-ID" }),
    cidr: field(z.string().min(1).max(255), {
      level: 1,
      identifier: true,
      filter: true,
      requiredOnPost: true,
      ops: ["get", "post", "put", "patch", "delete"],
      description: "format cidr (IPv4 or IPv6); normalised to the network address; a bare address is a /32 or /128",
    }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    deleted: field(z.boolean(), { level: 1, readOnly: true }),
    id: field(z.int(), { level: 0, readOnly: true, identifier: true, filter: true, immutable: true, ops: ["get", "put", "patch", "delete"] }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user" }),
    notes: field(z.string().max(255).nullable(), { level: 1, ops: ["post", "put", "patch"] }),
  }),
});

/** An allowed IP range as the Resources API renders it at level 2. */
export type AllowedIpRange = z.infer<typeof allowedIpRangeResource.fields>;
