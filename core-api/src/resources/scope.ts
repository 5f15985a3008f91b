/**
 * Who may do what on which chain in the Resources API (spec, "Authentication" and "Common request
 * headers"). The engine receives the caller's AuthContext and turns it into a scope here, for one
 * resource and operation:
 * 1. a session or token at all (6 no_valid_session);
 * 2. the availability table (resources/availability.ts) for the caller's kind (544);
 * 3. the chain: X-Service-Chain-ID for admins and privileged callers (419 when not a positive
 *    integer); the app's chain for end-users (a different X-Service-Chain-ID is 544);
 * 4. access to that chain: admin levels, or the token's scopes naming it (544 otherwise, also for
 *    a chain that does not exist).
 */
import type { AccessLevel } from "../auth/permissions.ts";
import { requireChainAccess, requireSession, type AuthContext } from "../auth/context.ts";
import { privilegedGrant } from "../auth/privileged.ts";
import type { CoreDb } from "../db/client.ts";
import type { ApiVersion } from "../http/api-version.ts";
import { ServiceError } from "../http/service-error.ts";
import { isAvailable, requireAvailable } from "./availability.ts";

/** The operations of the engine and the admin access level each needs by default. */
export type EngineOperation = "get" | "list" | "create" | "update" | "delete";
export const DEFAULT_ACCESS: Record<EngineOperation, AccessLevel> = {
  get: "read",
  list: "read",
  create: "write",
  update: "write",
  delete: "delete",
};

/** The caller as a resource operation sees it. */
export interface ResourceScope {
  db: CoreDb;
  now: Date;
  version: ApiVersion;
  auth: AuthContext;
  /** who the response is for: decides omitted properties and visibility (spec, "Resource-specific behaviour") */
  audience: "admin" | "privileged" | "end_user";
  /** the chain every read and write is confined to */
  chainId: number;
  /** admin user id recorded as last_updated_by / deleted_by; null when the caller is not an admin */
  actorAdminId: number | null;
  /** the end-user's users.id; null for admins and privileged callers */
  userId: number | null;
  /** requested response level 0-4 */
  level: number;
}

/** What the request attempts: the resource (declaration name, or CHANGE_LOG_RESOURCE) and operation. */
export interface ScopeRequest {
  resource: string;
  operation: EngineOperation;
}

/**
 * Resolves the scope of a Resources API request (see the module comment for the order).
 * @param chainHeader value of X-Service-Chain-ID
 * @param level the admin access level the operation needs (chain-scope tokens hold all but super_user)
 * @throws ServiceError no_valid_session (6, 401) without a session or token;
 *   resource_not_found (544, 404) when the table refuses the caller's kind, the caller lacks
 *   access to the chain (or it does not exist), or an end-user names another chain;
 *   parameter_invalid (419) when X-Service-Chain-ID is required or sent and not a positive integer
 */
export async function resolveScope(
  base: { db: CoreDb; now: Date; version: ApiVersion; auth: AuthContext },
  chainHeader: string | undefined,
  level: AccessLevel,
  responseLevel: number,
  request: ScopeRequest,
): Promise<ResourceScope> {
  const caller = requireSession(base.auth);
  const { resource, operation } = request;
  const common = { ...base, level: responseLevel };
  if (caller.kind === "end_user") {
    requireAvailable(resource, ["end_user"], operation);
    // The app decides the chain; naming another one is a request for something not there.
    if (chainHeader !== undefined && chainHeader.trim() !== "" && parseChainHeader(chainHeader) !== caller.chainId) {
      throw new ServiceError("resource_not_found");
    }
    return { ...common, audience: "end_user", chainId: caller.chainId, actorAdminId: null, userId: caller.userId };
  }
  if (caller.kind === "privileged") {
    requireAvailable(resource, ["chain_scope", "read_businesses"], operation);
    const chainId = parseChainHeader(chainHeader);
    const grant = await privilegedGrant(base.db, caller, chainId);
    const allowed =
      (isAvailable(resource, "chain_scope", operation) && grant.levels?.[level] === true) ||
      (isAvailable(resource, "read_businesses", operation) && grant.readBusinesses);
    if (!allowed) throw new ServiceError("resource_not_found");
    return { ...common, audience: "privileged", chainId, actorAdminId: null, userId: null };
  }
  requireAvailable(resource, ["admin"], operation);
  const chainId = parseChainHeader(chainHeader);
  await requireChainAccess(base.db, caller, chainId, level, "resource_not_found");
  return { ...common, audience: "admin", chainId, actorAdminId: caller.userId, userId: null };
}

/**
 * Reads X-Service-Chain-ID.
 * @throws ServiceError parameter_invalid (419) when missing or not a positive integer
 */
export function parseChainHeader(header: string | undefined): number {
  const s = header?.trim() ?? "";
  if (!/^\d{1,10}$/.test(s) || Number(s) < 1 || Number(s) > 2_147_483_647) {
    throw new ServiceError("parameter_invalid", "X-Service-Chain-ID must be given as a positive integer.");
  }
  return Number(s);
}
