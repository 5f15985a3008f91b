/**
 * ServiceClient in the Resources API (spec, "ServiceClient", "States and transitions",
 * availability per resource): the adapter between the generic engine and the client repository.
 *
 * - Admins only (privileged and end-user callers get 544); reads need read access, every write
 *   the super_user level (544 otherwise, nothing written).
 * - The chain is the header chain and never changes (`chain` is read-only: 419 in any body).
 * - PUT / PATCH setting `enabled` false, and DELETE, deactivate all the client's tokens in the
 *   same transaction; a second active identity source in a chain is refused (419).
 * - `access_tokens` (L3) lists the client's live tokens, never their secrets.
 * The module refuses to load when a declared F or S property has no support here.
 */
import { serviceClientResource } from "@service/shared/resources/service-client";
import { listTokensOfClients } from "../clients/access-tokens.ts";
import { requireAdminCaller, SUPER_USER_WRITES } from "../clients/availability.ts";
import { clientRecord } from "../clients/records.ts";
import {
  deleteServiceClient,
  findServiceClient,
  insertServiceClient,
  listServiceClients,
  updateServiceClient,
  type ServiceClientListQuery,
  type ServiceClientRow,
} from "../clients/service-clients.ts";
import { loadChainRecord } from "./chain.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ListQuery } from "./list-params.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./scope.ts";

const decl = serviceClientResource;

/** F property -> repository filter; S property -> repository sort column. */
const FILTERS = { enabled: "enabled", id: "id", name: "name" } as const;
const SORTS = { created_date: "createdDate", last_modified_date: "lastModifiedDate", name: "name" } as const;
for (const p of decl.properties.values()) {
  if (p.filter && !(p.name in FILTERS)) throw new Error(`service_client.${p.name}: no filter for it`);
  if (p.sort && !(p.name in SORTS)) throw new Error(`service_client.${p.name}: no sort for it`);
}

/** Level at which `access_tokens` is included (the field table's L). */
const TOKENS_LEVEL = decl.properties.get("access_tokens")!.level;

/** The ServiceClient adapter of the engine. */
export const serviceClientAdapter: ResourceAdapter = {
  declaration: decl,
  access: SUPER_USER_WRITES,

  async findOne(scope, by) {
    requireAdminCaller(scope);
    if (by.property !== "id") throw new Error(`service_client: no lookup by ${by.property}`);
    const row = await findServiceClient(scope.db, scope.chainId, by.value as number);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async list(scope, q) {
    requireAdminCaller(scope);
    const { rows, total } = await listServiceClients(scope.db, scope.chainId, toListQuery(q));
    return { records: await toRecords(scope, rows), total };
  },

  async create(scope, values) {
    requireAdminCaller(scope);
    const row = await insertServiceClient(
      scope.db,
      {
        chainId: scope.chainId,
        name: values.name as string,
        emailContact: (values.email_contact as string | undefined) ?? null,
        isIdentitySource: values.is_identity_source === true,
        lastUpdatedBy: scope.actorAdminId,
      },
      scope.now,
    );
    return (await toRecords(scope, [row]))[0]!;
  },

  // update and remove: the engine finds the target with findOne first, which checks the caller.
  async update(scope, target, values) {
    const row = await updateServiceClient(
      scope.db,
      scope.chainId,
      target.id as number,
      {
        name: values.name as string | undefined,
        emailContact: values.email_contact as string | undefined,
        enabled: values.enabled as boolean | undefined,
        isIdentitySource: values.is_identity_source as boolean | undefined,
      },
      scope.actorAdminId,
      scope.now,
    );
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async remove(scope, target) {
    const row = await deleteServiceClient(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },
};

/** Client records; their tokens are loaded (one query for the page) only when the level shows them. */
async function toRecords(scope: ResourceScope, rows: ServiceClientRow[]): Promise<ResourceRecord[]> {
  const chain = await loadChainRecord(scope.db, scope.chainId, scope.level);
  if (scope.level < TOKENS_LEVEL) return rows.map((r) => clientRecord(r, chain));
  const tokens = await listTokensOfClients(scope.db, scope.chainId, rows.map((r) => r.id));
  return rows.map((r) => clientRecord(r, chain, tokens.get(r.id) ?? []));
}

/** The engine's list query in repository terms. */
function toListQuery(q: ListQuery): ServiceClientListQuery {
  const filters: ServiceClientListQuery["filters"] = {};
  for (const [prop, value] of Object.entries(q.filters)) {
    if (prop === "id") filters.id = value as number;
    else if (prop === "name") filters.name = String(value);
    else if (prop === "enabled") filters.enabled = value as boolean;
  }
  return {
    filters,
    ...(q.sort ? { sort: { column: SORTS[q.sort.property as keyof typeof SORTS], order: q.sort.order } } : {}),
    order: q.order,
    limit: q.limit,
    offset: q.offset,
  };
}
