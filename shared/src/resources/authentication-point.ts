/**
 * The authentication point a chain renders under `authentication_point` (spec, "Chain (singular
 * resource)": object, nullable, read-only, level 2; handbook, "Sync between the webshop and the
 * platform"). It is not a resource of its own (no path serves it): this declaration only says how
 * the nested object renders, level by level, like every other nested resource.
 *
 * Decisions where the spec is silent:
 * - `type` is `webshop` (a Magento shop behind the connector), the only kind there is;
 * - `base_url` is the connector's base URL the core API calls (`{base_url}/rest/V1/service/customer/...`);
 * - `service_client` is the chain's active identity-source service client (`is_identity_source`,
 *   enabled, not deleted), null when the chain has none;
 * - the integration token the core API calls the connector with is write-only: it is never
 *   rendered (it is set with `npm run admin -- set-authentication-point`).
 * The spec marks the chain's property read-only, so the Chain resource does not write it.
 */
import { z } from "zod";
import { defineResource, field, reference } from "./meta.ts";

/** The kinds of authentication point. */
export const AUTHENTICATION_POINT_TYPES = ["webshop"] as const;
export type AuthenticationPointType = (typeof AUTHENTICATION_POINT_TYPES)[number];

export const authenticationPointResource = defineResource({
  name: "authentication_point",
  plural: "authentication_points",
  description:
    "The chain's authentication point: the webshop connector that checks shopper logins through the chain's apps and " +
    "holds the customers the chain's members are linked to (authentication_point_identifier). Read-only; its integration " +
    "token is never rendered.",
  fields: z.object({
    base_url: field(z.url({ protocol: /^https?$/ }).max(512), { level: 1, readOnly: true, description: "the connector's base URL" }),
    id: field(z.int(), { level: 0, readOnly: true, identifier: true, immutable: true }),
    service_client: field(reference().nullable(), {
      level: 1, readOnly: true, reference: "service_client", description: "the chain's active identity-source service client; null when none",
    }),
    type: field(z.enum(AUTHENTICATION_POINT_TYPES), { level: 1, readOnly: true }),
  }),
});

/** An authentication point as it renders at level 2. */
export type AuthenticationPoint = z.infer<typeof authenticationPointResource.fields>;
