/**
 * Access token storage (spec, "AccessToken" and "States and transitions"). A token's chain is its
 * service client's chain, copied into `chain_id` so every lookup filters on the chain first
 * (handbook, "Scale beyond one machine"). Only the SHA-256 of the secret is ever stored.
 *
 * A token is only attached to a live (not deleted) client of its chain: the client row is locked
 * while the token is written, so a concurrent client deletion (which deactivates its tokens in
 * its own transaction) cannot miss it.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { listRows } from "../db/resource-rows.ts";
import { accessTokens, serviceClients } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { accessTokenColumns, type AccessTokenRow } from "./records.ts";
import { runStatement, runTransaction } from "@service/shared/node";

/** A transaction handle of the core database. */
export type CoreTx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

export type { AccessTokenRow };
export interface NewAccessToken {
  /** lower-case UUID */
  id: string;
  chainId: number;
  serviceClientId: number;
  /** already checked (see clients/token-scopes.ts) */
  scope: string;
  /** hex SHA-256 of the secret */
  secretHash: string;
  /** admin user id of the creator */
  lastUpdatedBy: number | null;
}
/** Columns a PUT / PATCH may change; a key left out (or undefined) stays as it is. */
export type AccessTokenChanges = Partial<Pick<AccessTokenRow, "active" | "serviceClientId">>;

/** The live (not deleted) token `id` of chain `chainId`, or null. */
export async function findAccessToken(db: CoreDb, chainId: number, id: string): Promise<AccessTokenRow | null> {
  const [row] = await db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.chainId, chainId), eq(accessTokens.id, id), eq(accessTokens.deleted, false)))
    .limit(1);
  return row ?? null;
}

/**
 * One page of the live tokens of chain `chainId`, with the total over all pages: filters and sort
 * keys by the token's storage mapping (records.ts); without sort_by in creation order, ties
 * broken by id in the same direction.
 */
export async function listAccessTokens(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: AccessTokenRow[]; total: number }> {
  return listRows(db, accessTokenColumns, [eq(accessTokens.chainId, chainId), eq(accessTokens.deleted, false)], q);
}

/** The live tokens of the given clients of chain `chainId`, grouped by client id, oldest first. */
export async function listTokensOfClients(db: CoreDb, chainId: number, clientIds: number[]): Promise<Map<number, AccessTokenRow[]>> {
  const out = new Map<number, AccessTokenRow[]>(clientIds.map((id) => [id, []]));
  if (clientIds.length === 0) return out;
  const rows = await db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.chainId, chainId), inArray(accessTokens.serviceClientId, clientIds), eq(accessTokens.deleted, false)))
    .orderBy(asc(accessTokens.createdDate), asc(accessTokens.id));
  for (const row of rows) out.get(row.serviceClientId)?.push(row);
  return out;
}

/**
 * Creates an active token.
 * @param now creation and last-modified time
 * @throws ServiceError parameter_invalid (419) when `serviceClientId` is not a live client of the
 *   chain; nothing is written then
 */
export async function insertAccessToken(db: CoreDb, values: NewAccessToken, now: Date): Promise<AccessTokenRow> {
  return runTransaction(db, async (tx) => {
    await lockLiveClient(tx, values.chainId, values.serviceClientId);
    await tx.insert(accessTokens).values({ ...values, active: true, createdDate: now, lastModifiedDate: now });
    const [row] = await tx.select().from(accessTokens).where(eq(accessTokens.id, values.id));
    return row!;
  });
}

/**
 * Updates the live token `id` of chain `chainId`.
 * @param actor admin user id recorded as last_updated_by
 * @returns the row after the update, or null when no live token has that id in the chain
 * @throws ServiceError parameter_invalid (419) when a new `serviceClientId` is not a live client
 *   of the same chain; nothing is written then
 */
export async function updateAccessToken(
  db: CoreDb,
  chainId: number,
  id: string,
  changes: AccessTokenChanges,
  actor: number | null,
  now: Date,
): Promise<AccessTokenRow | null> {
  return runTransaction(db, async (tx) => {
    const live = and(eq(accessTokens.id, id), eq(accessTokens.chainId, chainId), eq(accessTokens.deleted, false));
    const [current] = await tx.select().from(accessTokens).where(live).for("update");
    if (!current) return null;
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as AccessTokenChanges;
    if (given.serviceClientId !== undefined) await lockLiveClient(tx, chainId, given.serviceClientId);
    await tx
      .update(accessTokens)
      .set({ ...given, lastUpdatedBy: actor, lastModifiedDate: now })
      .where(eq(accessTokens.id, id));
    const [row] = await tx.select().from(accessTokens).where(eq(accessTokens.id, id));
    return row ?? null;
  });
}

/**
 * Soft-deletes the live token `id` of chain `chainId`: kept for audit, deleted and inactive, so it
 * cannot authenticate.
 * @param actor admin user id recorded as last_updated_by
 * @returns the row after deletion, or null when no live token has that id in the chain
 */
export async function deleteAccessToken(
  db: CoreDb,
  chainId: number,
  id: string,
  actor: number | null,
  now: Date,
): Promise<AccessTokenRow | null> {
  const [res] = await runStatement(() => db
    .update(accessTokens)
    .set({ deleted: true, active: false, lastUpdatedBy: actor, lastModifiedDate: now })
    .where(and(eq(accessTokens.id, id), eq(accessTokens.chainId, chainId), eq(accessTokens.deleted, false))));
  if (res.affectedRows === 0) return null;
  const [row] = await db.select().from(accessTokens).where(eq(accessTokens.id, id));
  return row ?? null;
}

/**
 * Deactivates every active token of client `clientId` (spec, "States and transitions": a disabled
 * or deleted client's tokens are revoked). Runs inside the caller's transaction.
 * @param actor admin user id recorded as last_updated_by of each deactivated token
 * @returns how many tokens were deactivated
 */
export async function deactivateTokensOfClient(
  tx: CoreTx,
  chainId: number,
  clientId: number,
  actor: number | null,
  now: Date,
): Promise<number> {
  const [res] = await tx
    .update(accessTokens)
    .set({ active: false, lastUpdatedBy: actor, lastModifiedDate: now })
    .where(and(eq(accessTokens.chainId, chainId), eq(accessTokens.serviceClientId, clientId), eq(accessTokens.active, true)));
  return res.affectedRows;
}

/**
 * Locks client `clientId` for the rest of the transaction.
 * @throws ServiceError parameter_invalid (419) when it is not a live client of chain `chainId`
 */
async function lockLiveClient(tx: CoreTx, chainId: number, clientId: number): Promise<void> {
  const [client] = await tx
    .select({ id: serviceClients.id })
    .from(serviceClients)
    .where(and(eq(serviceClients.id, clientId), eq(serviceClients.chainId, chainId), eq(serviceClients.deleted, false)))
    .for("update");
  if (!client) {
    throw new ServiceError("parameter_invalid", `service_client: no service client ${clientId} in this chain.`);
  }
}
