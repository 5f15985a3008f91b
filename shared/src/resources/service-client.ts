/**
 * ServiceClient: spec, "Resources and their fields" -> "ServiceClient". One line per field; the
 * field table's L column is `level`, its flags the other options.
 *
 * A registered external API client that authenticates with bearer access tokens. Its chain is the
 * chain of `X-Service-Chain-ID` and never changes (read-only here, so a body naming it is refused).
 *
 * Decisions where the spec is silent: `email_contact` is not nullable (the spec marks nullability
 * and does not here) and not required, so a client without one is rendered without the property;
 * `enabled` has no default in the declaration, so a PUT that leaves it out keeps it;
 * `deleted_by` and `last_updated_by` are references to the admin user (`{id}`); `access_tokens`
 * are references to AccessToken, whose id is a UUID.
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

export const serviceClientResource = defineResource({
  name: "service_client",
  plural: "service_clients",
  description: "A registered external API client that authenticates with bearer access tokens.",
  fields: z.object({
    access_tokens: field(z.array(z.looseObject({ id: z.uuid() })), { level: 3, readOnly: true, reference: "access_token" }),
    chain: field(reference(), { level: 2, readOnly: true, immutable: true, reference: "chain", description: "set from X-Service-Chain-ID, cannot be modified" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    deleted: field(z.boolean(), { level: 1, readOnly: true }),
    deleted_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user", description: "admin who deleted it" }),
    email_contact: field(z.email().max(256), { level: 1, ops: ["post", "put", "patch"] }),
    enabled: field(z.boolean(), { level: 1, filter: true, ops: ["put", "patch"], description: "disabled clients cannot authenticate" }),
    id: field(z.int(), { level: 0, readOnly: true, identifier: true, filter: true, immutable: true, ops: ["get", "put", "patch", "delete"] }),
    is_identity_source: field(z.boolean().default(false), { level: 1, ops: ["post", "put", "patch"], description: "at most one enabled client per chain has it true" }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user" }),
    name: field(z.string().min(1).max(255), { level: 1, filter: true, sort: true, requiredOnPost: true, ops: ["post", "put", "patch"] }),
  }),
});

/** A service client as the Resources API renders it at level 3. */
export type ServiceClient = z.infer<typeof serviceClientResource.fields>;
