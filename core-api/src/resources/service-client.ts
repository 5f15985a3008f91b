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
 * Property <-> column mapping is the client's storage mapping (clients/records.ts), derived from
 * the declaration and checked when it loads.
 */
import { serviceClientResource } from "@service/shared/resources/service-client";
import { loadChainRecord } from "../chains/nested-record.ts";
import { listTokensOfClients } from "../clients/access-tokens.ts";
import { clientRecord, serviceClientColumns } from "../clients/records.ts";
import {
  deleteServiceClient,
  findServiceClient,
  insertServiceClient,
  listServiceClients,
  updateServiceClient,
  type NewServiceClient,
  type ServiceClientChanges,
  type ServiceClientRow,
} from "../clients/service-clients.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./request-scope.ts";

/** Level at which `access_tokens` is included (the field table's L). */
const TOKENS_LEVEL = serviceClientResource.properties.get("access_tokens")!.level;

/** The ServiceClient adapter of the engine. */
export const serviceClientAdapter: ResourceAdapter = {
  declaration: serviceClientResource,

  async findOne(scope, by) {
    if (by.property !== "id") throw new Error(`service_client: no lookup by ${by.property}`);
    const row = await findServiceClient(scope.db, scope.chainId, by.value as number);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async list(scope, q) {
    const { rows, total } = await listServiceClients(scope.db, scope.chainId, q);
    return { records: await toRecords(scope, rows), total };
  },

  async create(scope, values) {
    const columns = serviceClientColumns.toColumns(values) as NewServiceClient;
    const row = await insertServiceClient(scope.db, { ...columns, chainId: scope.chainId, lastUpdatedBy: scope.actorAdminId }, scope.now);
    return (await toRecords(scope, [row]))[0]!;
  },

  // update and remove: the engine finds the target with findOne first, which checks the caller.
  async update(scope, target, values) {
    const changes = serviceClientColumns.toColumns(values) as ServiceClientChanges;
    const row = await updateServiceClient(scope.db, scope.chainId, target.id as number, changes, scope.actorAdminId, scope.now);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async remove(scope, target) {
    const row = await deleteServiceClient(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },
};

/** Client records; their tokens are loaded (one query for the page) only when the level shows them. */
async function toRecords(scope: ResourceScope, rows: ServiceClientRow[]): Promise<ResourceRecord[]> {
  const chain = await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain);
  if (scope.recursionLevel < TOKENS_LEVEL) return rows.map((r) => clientRecord(r, chain));
  const tokens = await listTokensOfClients(scope.db, scope.chainId, rows.map((r) => r.id));
  return rows.map((r) => clientRecord(r, chain, tokens.get(r.id) ?? []));
}
