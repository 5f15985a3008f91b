/**
 * Who may do what on which chain in the Resources API (spec, "Authentication" and "Common request
 * headers"): the engine turns the request's caller into a scope here, for one resource and
 * operation, by the access table (auth/access-table.ts):
 * 1. credentials at all (6 no_valid_session);
 * 2. the table's row for the caller's kind (544), before the chain header, the parameters or the
 *    body are read, so a refused caller learns nothing about the request's rules;
 * 3. the chain: X-Service-Chain-ID for admins and privileged callers (419 when not a positive
 *    integer); the app's chain for end-users (a different X-Service-Chain-ID is 544); for session
 *    headers sent with an app, whichever the stored session turns out to be;
 * 4. in one query (auth/request-auth.ts), the credentials (6 / 266) and the row's access level on
 *    that chain (544 otherwise, also for a chain that does not exist; 68 for an admin whose
 *    address the chain's allowed IP ranges exclude).
 *
 * Two levels meet here and are named apart: the admin ACCESS level an operation needs (the
 * table's) and the response RECURSION level the request asks for (X-Service-Response-Recursion-Level).
 */
import type { SecretBox } from "@service/shared/secret-box";
import type { RequestContext } from "../auth/request-context.ts";
import { resolvesNothing, type TargetPolicy } from "../net/public-target.ts";
import { mayAttempt, resourceRule, type EngineOperation } from "../auth/access-table.ts";
import { requireAccess, requireSession } from "../auth/context.ts";
import type { RequestAuth } from "../auth/request-auth.ts";
import type { ChainHead } from "../chains/chain-columns.ts";
import type { CoreDb } from "../db/client.ts";
import type { WritingAdmin } from "../ip-ranges/self-lockout.ts";
import type { ApiVersion } from "../http/api-version.ts";
import { ServiceError } from "../http/service-error.ts";
import { readViewOf, type ReadView } from "./read-view.ts";

export type { EngineOperation } from "../auth/access-table.ts";

/** The caller as a resource operation sees it. */
export interface ResourceScope {
  db: CoreDb;
  now: Date;
  version: ApiVersion;
  /** who the response is for: decides omitted properties and visibility (spec, "Resource-specific behaviour") */
  audience: "admin" | "privileged" | "end_user";
  /** the chain every read and write is confined to */
  chainId: number;
  /** that chain's row, read with the authentication (a nested chain needs no query of its own) */
  chain: ChainHead;
  /** admin user id recorded as last_updated_by / deleted_by; null when the caller is not an admin */
  actorAdminId: number | null;
  /** the end-user's users.id; null for admins and privileged callers */
  userId: number | null;
  /** the response recursion level asked for, 0-4 (resources/render.ts) */
  recursionLevel: number;
  /** what the caller may see of each resource, nested ones included (resources/read-view.ts) */
  view: ReadView;
  /** an admin caller's address and super-user flag on the chain (the allowed IP ranges apply to it); null for other callers */
  writingAdmin: WritingAdmin | null;
  /** the service's secret box, for resources that keep secrets for outbound calls (RequestContext.secretBox) */
  secretBox: () => Promise<SecretBox>;
  /** where outbound targets may point: WEBHOOK_ALLOW_PRIVATE and the host resolver (net/public-target.ts) */
  targets: TargetPolicy;
}

/** What the request attempts, and the headers that say where and how deep. */
export interface ScopeRequest {
  /** declaration name, or CHANGE_LOG_RESOURCE */
  resource: string;
  operation: EngineOperation;
  /** value of X-Service-Chain-ID */
  chainHeader: string | undefined;
  /** the response recursion level, already parsed */
  recursionLevel: number;
}

/** What resolveScope reads of the request's context. */
export type ScopeBase = Pick<RequestContext, "db" | "now" | "version" | "auth" | "deps" | "secretBox">;

/**
 * Resolves the scope of a Resources API request (see the module comment for the order).
 * @throws ServiceError no_valid_session (6, 401) without credentials or with bad ones;
 *   access_token_invalid (266, 401) for a privileged token that does not verify;
 *   resource_not_found (544, 404) when the table refuses the caller's kind or it lacks the level
 *   on the chain (or the chain does not exist), or an end-user names another chain;
 *   parameter_invalid (419) when X-Service-Chain-ID is required or sent and not a positive
 *   integer; permission_denied_or_non_existent (68, 403) for an admin outside the chain's ranges
 */
export async function resolveScope(base: ScopeBase, request: ScopeRequest): Promise<ResourceScope> {
  const { auth } = base;
  const { chainHeader } = request;
  requireSession(auth);
  const rule = resourceRule(request.resource, request.operation);
  // The table first: a kind it refuses gets 544 before the chain header is even read.
  if (auth.kind === "anonymous" || !rule || !mayAttempt(rule, auth.kind)) throw new ServiceError("resource_not_found");
  let chainId: number;
  if (await isShopper(auth, chainHeader)) {
    // A session sent with an app may turn out a shopper's only now: the table's row for shoppers, again first.
    if (!mayAttempt(rule, "end_user")) throw new ServiceError("resource_not_found");
    chainId = await appChainOf(auth, chainHeader);
  } else {
    chainId = parseChainHeader(chainHeader);
  }
  const grant = await requireAccess(auth, rule, chainId, "resource_not_found");
  const caller = grant.auth;
  return {
    db: base.db,
    now: base.now,
    version: base.version,
    audience: caller.kind === "admin" ? "admin" : caller.kind === "privileged" ? "privileged" : "end_user",
    chainId,
    chain: grant.chain,
    actorAdminId: caller.kind === "admin" ? caller.userId : null,
    userId: caller.kind === "end_user" ? caller.userId : null,
    recursionLevel: request.recursionLevel,
    view: readViewOf(grant, caller.kind === "end_user"),
    writingAdmin: caller.kind === "admin" ? { clientIp: caller.clientIp ?? null, superUser: grant.levels?.super_user === true } : null,
    secretBox: base.secretBox,
    targets: { allowPrivate: base.deps.config.allowPrivateWebhooks, resolveHost: base.deps.resolveHost ?? resolvesNothing },
  };
}

/**
 * Whether the request's caller is a shopper. Session headers sent with an app are an admin's or a
 * shopper's session: the one authentication query, asked on the chain X-Service-Chain-ID names
 * when it is well-formed (what an admin's check needs), tells which.
 */
async function isShopper(auth: RequestAuth, chainHeader: string | undefined): Promise<boolean> {
  if (auth.kind !== "app_session") return auth.kind === "end_user";
  let named: number | null = null;
  try {
    named = parseChainHeader(chainHeader);
  } catch {
    // a shopper may leave the header out; an admin's 419 comes from parseChainHeader later
  }
  const caller = named === null ? await auth.identity() : (await auth.onChain(named)).auth;
  return caller.kind === "end_user";
}

/**
 * The chain of a shopper's request: the app's (one query, which the access check reuses).
 * @throws ServiceError resource_not_found (544) when X-Service-Chain-ID names another chain:
 *   that is a request for something not there; parameter_invalid (419) when it is malformed
 */
async function appChainOf(auth: RequestAuth, chainHeader: string | undefined): Promise<number> {
  const caller = await auth.identity();
  if (caller.kind !== "end_user") throw new Error(`a shopper's credentials verified as ${caller.kind}`);
  if (chainHeader !== undefined && chainHeader.trim() !== "" && parseChainHeader(chainHeader) !== caller.chainId) {
    throw new ServiceError("resource_not_found");
  }
  return caller.chainId;
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
