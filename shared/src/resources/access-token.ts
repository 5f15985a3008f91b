/**
 * AccessToken: spec, "Resources and their fields" -> "AccessToken". One line per field; the field
 * table's L column is `level`, its flags the other options.
 *
 * A bearer token of a service client; its id is a UUID and its secret (`token_secret`) exists in
 * plain only in the response to its creation. `scope` and `service_client` are required on POST
 * (spec: "Required on POST: service_client and scope").
 *
 * Decisions where the spec is silent: `active` has no default in the declaration, so a PUT that
 * leaves it out keeps it (a PUT must not silently re-activate a revoked token); `last_updated_by`
 * is a reference to the admin user (`{id}`).
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

export const accessTokenResource = defineResource({
  name: "access_token",
  plural: "access_tokens",
  description: "A bearer token issued to a service client for privileged authentication.",
  fields: z.object({
    active: field(z.boolean(), { level: 1, filter: true, ops: ["put", "patch"], description: "whether it can authenticate" }),
    created_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    deleted: field(z.boolean(), { level: 1, readOnly: true, description: "soft-deleted tokens cannot authenticate" }),
    id: field(z.uuid(), { level: 0, readOnly: true, identifier: true, filter: true, immutable: true, ops: ["get", "put", "patch", "delete"] }),
    last_modified_date: field(z.iso.datetime(), { level: 2, readOnly: true, immutable: true, sort: true }),
    last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user", description: "admin user who last created, updated or deleted it" }),
    scope: field(z.string(), { level: 1, filter: true, immutable: true, requiredOnPost: true, ops: ["post"], description: "comma-separated key:value list, fixed at creation" }),
    service_client: field(reference(), { level: 2, filter: true, requiredOnPost: true, reference: "service_client", ops: ["post", "put", "patch"] }),
    token_secret: field(z.string().nullable(), { level: 1, readOnly: true, description: "present only in the creation response" }),
  }),
});

/** An access token as the Resources API renders it at level 2 (token_secret only after creation). */
export type AccessToken = z.infer<typeof accessTokenResource.fields>;
