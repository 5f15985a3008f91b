/**
 * AccessToken in the Resources API (spec, "AccessToken", "States and transitions", availability
 * per resource): the adapter between the generic engine and the token repository.
 *
 * - Admins only (privileged and end-user callers get 544); reads need read access, every write
 *   the super_user level (544 otherwise, nothing written).
 * - POST: `scope` must pass the creation rules (access_denied 424 otherwise) and `service_client`
 *   must be a live client of the header chain (parameter_invalid 419 otherwise); the token gets a
 *   random UUID and a new secret, returned once as `token_secret` and stored only as SHA-256.
 * - PUT / PATCH: `active` and `service_client` (another live client of the same chain); `scope`
 *   is immutable (419, by the declaration).
 * - DELETE: soft delete, kept for audit with last_updated_by = the admin.
 * The module refuses to load when a declared F or S property has no support here.
 */
import { accessTokenResource } from "@service/shared/resources/access-token";
import { newSecret, sha256Hex } from "../auth/secrets.ts";
import {
  deleteAccessToken,
  findAccessToken,
  insertAccessToken,
  listAccessTokens,
  updateAccessToken,
  type AccessTokenListQuery,
  type AccessTokenRow,
} from "../clients/access-tokens.ts";
import { requireAdminCaller, SUPER_USER_WRITES } from "../clients/availability.ts";
import { clientRecord, tokenRecord } from "../clients/records.ts";
import { requestedScope } from "../clients/scope.ts";
import { findServiceClientsByIds } from "../clients/service-clients.ts";
import { loadChainRecord } from "./chain.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ListQuery } from "./list-params.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./scope.ts";

const decl = accessTokenResource;

/** F property -> repository filter; S property -> repository sort column. */
const FILTERS = { active: "active", id: "id", scope: "scope", service_client: "serviceClientId" } as const;
const SORTS = { created_date: "createdDate", last_modified_date: "lastModifiedDate" } as const;
for (const p of decl.properties.values()) {
  if (p.filter && !(p.name in FILTERS)) throw new Error(`access_token.${p.name}: no filter for it`);
  if (p.sort && !(p.name in SORTS)) throw new Error(`access_token.${p.name}: no sort for it`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The AccessToken adapter of the engine. */
export const accessTokenAdapter: ResourceAdapter = {
  declaration: decl,
  access: SUPER_USER_WRITES,

  async findOne(scope, by) {
    requireAdminCaller(scope);
    if (by.property !== "id") throw new Error(`access_token: no lookup by ${by.property}`);
    const row = await findAccessToken(scope.db, scope.chainId, String(by.value).toLowerCase());
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async list(scope, q) {
    requireAdminCaller(scope);
    const query = toListQuery(q);
    if (!query) return { records: [], total: 0 };
    const { rows, total } = await listAccessTokens(scope.db, scope.chainId, query);
    return { records: await toRecords(scope, rows), total };
  },

  async create(scope, values) {
    requireAdminCaller(scope);
    // Scope first: a token the caller may not mint is refused before anything else is looked up.
    const tokenScope = requestedScope(values.scope as string, scope.chainId);
    const secret = newSecret();
    const row = await insertAccessToken(
      scope.db,
      {
        id: crypto.randomUUID(),
        chainId: scope.chainId,
        serviceClientId: (values.service_client as { id: number }).id,
        scope: tokenScope,
        secretHash: await sha256Hex(secret),
        lastUpdatedBy: scope.actorAdminId,
      },
      scope.now,
    );
    // The only response that ever carries the secret.
    return { ...(await toRecords(scope, [row]))[0]!, token_secret: secret };
  },

  // update and remove: the engine finds the target with findOne first, which checks the caller.
  async update(scope, target, values) {
    const client = values.service_client as { id: number } | undefined;
    const row = await updateAccessToken(
      scope.db,
      scope.chainId,
      target.id as string,
      { active: values.active as boolean | undefined, serviceClientId: client?.id },
      scope.actorAdminId,
      scope.now,
    );
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async remove(scope, target) {
    const row = await deleteAccessToken(scope.db, scope.chainId, target.id as string, scope.actorAdminId, scope.now);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },
};

/**
 * Token records with their service client nested. The client (L2) is rendered one level down, so
 * it is only loaded when the response level shows more of it than its id.
 */
async function toRecords(scope: ResourceScope, rows: AccessTokenRow[]): Promise<ResourceRecord[]> {
  if (scope.level < 2) return rows.map((r) => tokenRecord(r, { id: r.serviceClientId }));
  const clients = await findServiceClientsByIds(scope.db, scope.chainId, rows.map((r) => r.serviceClientId));
  const chain = await loadChainRecord(scope.db, scope.chainId, scope.level - 1);
  return rows.map((r) => {
    const client = clients.get(r.serviceClientId);
    return tokenRecord(r, client ? clientRecord(client, chain) : { id: r.serviceClientId });
  });
}

/** The engine's list query in repository terms; null when a filter can match nothing (an id that is not a UUID). */
function toListQuery(q: ListQuery): AccessTokenListQuery | null {
  const filters: AccessTokenListQuery["filters"] = {};
  for (const [prop, value] of Object.entries(q.filters)) {
    if (prop === "id") {
      if (!UUID.test(String(value))) return null;
      filters.id = String(value).toLowerCase();
    } else if (prop === "active") filters.active = value as boolean;
    else if (prop === "scope") filters.scope = String(value);
    else if (prop === "service_client") filters.serviceClientId = value as number;
  }
  return {
    filters,
    ...(q.sort ? { sort: { column: SORTS[q.sort.property as keyof typeof SORTS], order: q.sort.order } } : {}),
    order: q.order,
    limit: q.limit,
    offset: q.offset,
  };
}
