/**
 * The availability table (spec, "Authentication": availability per resource; "Resource-specific
 * behaviour"), as data in one place: which engine operations each kind of caller may attempt on
 * each resource. The engine consults it right after authentication, before the chain header,
 * the parameters or the body are read, so a refused caller gets resource_not_found (544) and
 * learns nothing about the request's rules. Access levels are checked afterwards (scope.ts).
 *
 * Columns:
 * - admin: offered operations; each still needs its admin level (super_user for the writes the
 *   spec reserves to super users).
 * - chain_scope: a privileged token with `chain:{id}` for the chain. Writes that need a super-user
 *   admin (AllowedIpRange writes, Chain PUT/PATCH) are not listed: a token is not an admin and is
 *   never a super user (auth/privileged.ts), so "yes, chain scope" covers the reads.
 * - read_businesses: a privileged token with only `read_businesses:{id}`.
 * - end_user: a shopper through an app of the chain; GET only, on three resources.
 * AccessToken and ServiceClient are admin-only (544 for everyone else); so is the campaign
 * change log ("not stated as allowed" for the others: closed by default).
 */
import { ServiceError } from "../http/service-error.ts";
import type { EngineOperation } from "./scope.ts";

/** The kinds of caller the table distinguishes. */
export type CallerColumn = "admin" | "chain_scope" | "read_businesses" | "end_user";

/** Operations per caller kind for one resource. */
export type Availability = Readonly<Record<CallerColumn, readonly EngineOperation[]>>;

const ALL: readonly EngineOperation[] = ["get", "list", "create", "update", "delete"];
const READ: readonly EngineOperation[] = ["get", "list"];
const NONE: readonly EngineOperation[] = [];

/** Resource name used for the campaign change log (GET /resources/campaign/{id}/change_log). */
export const CHANGE_LOG_RESOURCE = "campaign_change_log";

/** The table, by resource declaration name. A resource missing here is refused to everyone. */
export const AVAILABILITY: Readonly<Record<string, Availability>> = {
  business: { admin: ALL, chain_scope: ALL, read_businesses: READ, end_user: READ },
  voucher: { admin: ALL, chain_scope: ALL, read_businesses: NONE, end_user: READ },
  "content-page": { admin: ALL, chain_scope: ALL, read_businesses: NONE, end_user: READ },
  allowed_ip_range: { admin: ALL, chain_scope: READ, read_businesses: NONE, end_user: NONE },
  chain: { admin: ["get", "update"], chain_scope: ["get"], read_businesses: NONE, end_user: NONE },
  access_token: { admin: ALL, chain_scope: NONE, read_businesses: NONE, end_user: NONE },
  service_client: { admin: ALL, chain_scope: NONE, read_businesses: NONE, end_user: NONE },
  [CHANGE_LOG_RESOURCE]: { admin: ["get"], chain_scope: NONE, read_businesses: NONE, end_user: NONE },
};

/**
 * Whether `column` may attempt `operation` on resource `resource` (false for an unknown resource).
 */
export function isAvailable(resource: string, column: CallerColumn, operation: EngineOperation): boolean {
  return AVAILABILITY[resource]?.[column].includes(operation) ?? false;
}

/**
 * Refuses an operation no column of the caller's kind offers.
 * @param columns the caller's columns: one for admins and end-users; a privileged caller may hold
 *   both token columns (it is checked per chain later), so it passes when either offers the operation
 * @throws ServiceError resource_not_found (544, HTTP 404) with the catalogue's description, the
 *   same as for a missing resource
 */
export function requireAvailable(resource: string, columns: readonly CallerColumn[], operation: EngineOperation): void {
  if (!columns.some((column) => isAvailable(resource, column, operation))) throw new ServiceError("resource_not_found");
}
