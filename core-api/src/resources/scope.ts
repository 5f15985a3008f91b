/**
 * Who may do what on which chain in the Resources API (spec, "Authentication" and "Common request
 * headers"). The engine receives the caller's AuthContext and turns it into a scope here; the
 * privileged and end-user contexts add their branches to `resolveScope` when they exist.
 */
import type { AccessLevel } from "../auth/permissions.ts";
import { requireChainAccess, requireSession, type AuthContext } from "../auth/context.ts";
import type { CoreDb } from "../db/client.ts";
import type { ApiVersion } from "../http/api-version.ts";
import { ServiceError } from "../http/service-error.ts";

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
  /** who the response is for: decides omitted properties (spec, "Resource-specific behaviour") */
  audience: "admin";
  /** the chain every read and write is confined to */
  chainId: number;
  /** admin user id recorded as last_updated_by / deleted_by; null when the caller is not an admin */
  actorAdminId: number | null;
  /** requested response level 0-4 */
  level: number;
}

/**
 * Resolves the scope of an admin request.
 * @param chainHeader value of X-Service-Chain-ID
 * @throws ServiceError no_valid_session (6, 401) without a session;
 *   parameter_invalid (419) when X-Service-Chain-ID is missing or not a positive integer;
 *   resource_not_found (544, 404) when the admin lacks `level` on that chain (or it does not exist)
 */
export async function resolveScope(
  base: { db: CoreDb; now: Date; version: ApiVersion; auth: AuthContext },
  chainHeader: string | undefined,
  level: AccessLevel,
  responseLevel: number,
): Promise<ResourceScope> {
  const caller = requireSession(base.auth);
  const chainId = parseChainHeader(chainHeader);
  await requireChainAccess(base.db, caller, chainId, level, "resource_not_found");
  return { ...base, audience: "admin", chainId, actorAdminId: caller.userId, level: responseLevel };
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
