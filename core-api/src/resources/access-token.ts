/**
 * AccessToken in the Resources API (spec, "AccessToken", "States and transitions", availability
 * per resource): the adapter between the generic engine and the token repository.
 *
 * - Admins only (privileged and end-user callers get 544); reads need read access, every write
 *   the super_user level (544 otherwise, nothing written): the access table's row
 *   (auth/access-table.ts), checked by the engine before the adapter runs.
 * - POST: `scope` must pass the creation rules (access_denied 424 otherwise) and `service_client`
 *   must be a live client of the header chain (parameter_invalid 419 otherwise); the token gets a
 *   random UUID and a new secret, returned once as `token_secret` (at every recursion level) and stored only as SHA-256.
 * - PUT / PATCH: `active` and `service_client` (another live client of the same chain); `scope`
 *   is immutable (419, by the declaration).
 * - DELETE: soft delete, kept for audit with last_updated_by = the admin.
 * Property <-> column mapping is the token's storage mapping (clients/records.ts), derived from
 * the declaration and checked when it loads.
 */
import { accessTokenResource } from "@service/shared/resources/access-token";
import { serviceClientResource } from "@service/shared/resources/service-client";
import { newSecret, sha256Hex } from "../crypto/secrets.ts";
import { loadChainRecord } from "../chains/nested-record.ts";
import {
  deleteAccessToken,
  findAccessToken,
  insertAccessToken,
  listAccessTokens,
  listTokensOfClients,
  updateAccessToken,
  type AccessTokenChanges,
  type AccessTokenRow,
  type NewAccessToken,
} from "../clients/access-tokens.ts";
import { accessTokenColumns, clientRecord, tokenRecord } from "../clients/records.ts";
import { requestedScope } from "../clients/token-scopes.ts";
import { findServiceClientsByIds } from "../clients/service-clients.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceRecord } from "./render.ts";
import type { ResourceScope } from "./request-scope.ts";

/** Level at which a service client shows its `access_tokens`. */
const TOKENS_LEVEL = serviceClientResource.properties.get("access_tokens")!.level;

/** The AccessToken adapter of the engine. */
export const accessTokenAdapter: ResourceAdapter = {
  declaration: accessTokenResource,
  // The secret exists in plain only in this answer: a level-0 creation must carry it too.
  alwaysOnCreate: ["token_secret"],

  async findOne(scope, by) {
    if (by.property !== "id") throw new Error(`access_token: no lookup by ${by.property}`);
    const row = await findAccessToken(scope.db, scope.chainId, String(by.value).toLowerCase());
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async list(scope, q) {
    const { rows, total } = await listAccessTokens(scope.db, scope.chainId, q);
    return { records: await toRecords(scope, rows), total };
  },

  async create(scope, values) {
    // Scope first: a token the caller may not mint is refused before anything else is looked up.
    const tokenScope = requestedScope(values.scope as string, scope.chainId);
    const secret = newSecret();
    const row = await insertAccessToken(
      scope.db,
      {
        ...(accessTokenColumns.toColumns(values) as NewAccessToken),
        id: crypto.randomUUID(),
        chainId: scope.chainId,
        scope: tokenScope,
        secretHash: sha256Hex(secret),
        lastUpdatedBy: scope.actorAdminId,
      },
      scope.now,
    );
    // The only response that ever carries the secret.
    return { ...(await toRecords(scope, [row]))[0]!, token_secret: secret };
  },

  // update and remove: the engine finds the target with findOne first, which checks the caller.
  async update(scope, target, values) {
    const changes = accessTokenColumns.toColumns(values) as AccessTokenChanges;
    const row = await updateAccessToken(scope.db, scope.chainId, target.id as string, changes, scope.actorAdminId, scope.now);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },

  async remove(scope, target) {
    const row = await deleteAccessToken(scope.db, scope.chainId, target.id as string, scope.actorAdminId, scope.now);
    return row ? (await toRecords(scope, [row]))[0]! : null;
  },
};

/**
 * Token records with their service client nested, rendered one level down (L2): it is only
 * loaded when that level shows more of it than its id, its chain one level further down, and its
 * own tokens when its level shows them.
 */
async function toRecords(scope: ResourceScope, rows: AccessTokenRow[]): Promise<ResourceRecord[]> {
  const clientLevel = scope.recursionLevel - 1;
  if (clientLevel < 1) return rows.map((r) => tokenRecord(r, { id: r.serviceClientId }));
  const clientIds = rows.map((r) => r.serviceClientId);
  const [clients, chain, tokens] = await Promise.all([
    findServiceClientsByIds(scope.db, scope.chainId, clientIds),
    loadChainRecord(scope.db, scope.chainId, clientLevel, scope.chain),
    clientLevel >= TOKENS_LEVEL ? listTokensOfClients(scope.db, scope.chainId, clientIds) : undefined,
  ]);
  return rows.map((r) => {
    const client = clients.get(r.serviceClientId);
    return tokenRecord(r, client ? clientRecord(client, chain, tokens?.get(client.id)) : { id: r.serviceClientId });
  });
}
