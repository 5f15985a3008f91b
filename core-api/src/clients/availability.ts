/**
 * Who may use the AccessToken and ServiceClient resources (spec, "Authentication": availability
 * per resource, and "Write operations (POST, PUT, PATCH, DELETE) on AccessToken, ServiceClient
 * ... require super-user admin access").
 *
 * Admins only: a privileged (bearer-token) or end-user caller gets resource_not_found (544), so a
 * token can never mint or revoke tokens. Reads need the read level, every write the super_user
 * level; a missing level is also 544 (resolveScope).
 */
import type { AccessLevel } from "../auth/permissions.ts";
import { ServiceError } from "../http/service-error.ts";
import type { EngineOperation, ResourceScope } from "../resources/scope.ts";

/** The engine's access override of both adapters: reads keep their default (read). */
export const SUPER_USER_WRITES: Partial<Record<EngineOperation, AccessLevel>> = {
  create: "super_user",
  update: "super_user",
  delete: "super_user",
};

/**
 * Refuses every caller that is not a logged-in admin. The availability table
 * (resources/availability.ts) already refuses the others before the adapter runs; this second
 * check keeps the two resources closed should the table ever be edited by mistake.
 * @throws ServiceError resource_not_found (544, HTTP 404) for any other kind of caller
 */
export function requireAdminCaller(scope: Pick<ResourceScope, "auth">): void {
  if (scope.auth.kind !== "admin") {
    throw new ServiceError("resource_not_found", "This resource is available to admin users only.");
  }
}
