/**
 * Service client storage (spec, "ServiceClient" and "States and transitions"). Every write of a
 * client goes through here, so the two rules that span rows hold in one transaction each:
 * - at most one active (enabled, not deleted) identity-source client per chain;
 * - disabling or deleting a client deactivates all its access tokens, visible to the very next
 *   request (handbook, "revocation": immediate).
 */
import { and, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { listRows } from "../db/resource-rows.ts";
import { chains, serviceClients } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { deactivateTokensOfClient, type CoreTx } from "./access-tokens.ts";
import { serviceClientColumns, type ServiceClientRow } from "./records.ts";
import { runTransaction } from "@service/shared/node";

export type { ServiceClientRow };
/** What a create gives; the rest takes the column defaults (enabled, not deleted). */
export interface NewServiceClient {
  chainId: number;
  name: string;
  emailContact?: string | null;
  isIdentitySource?: boolean;
  /** admin user id of the creator */
  lastUpdatedBy: number | null;
}
/** Columns a PUT / PATCH may change; a key left out (or undefined) stays as it is. */
export type ServiceClientChanges = Partial<Pick<ServiceClientRow, "name" | "emailContact" | "enabled" | "isIdentitySource">>;

/** The live (not deleted) client `id` of chain `chainId`, or null. */
export async function findServiceClient(db: CoreDb, chainId: number, id: number): Promise<ServiceClientRow | null> {
  const [row] = await db
    .select()
    .from(serviceClients)
    .where(and(eq(serviceClients.chainId, chainId), eq(serviceClients.id, id), eq(serviceClients.deleted, false)))
    .limit(1);
  return row ?? null;
}

/** Clients of chain `chainId` by id, deleted ones included (a token still names its deleted client). */
export async function findServiceClientsByIds(db: CoreDb, chainId: number, ids: number[]): Promise<Map<number, ServiceClientRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select()
    .from(serviceClients)
    .where(and(eq(serviceClients.chainId, chainId), inArray(serviceClients.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * One page of the live clients of chain `chainId`, with the total over all pages: filters and
 * sort keys by the client's storage mapping (records.ts); ties broken by id in the same direction.
 */
export async function listServiceClients(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: ServiceClientRow[]; total: number }> {
  return listRows(db, serviceClientColumns, [eq(serviceClients.chainId, chainId), eq(serviceClients.deleted, false)], q);
}

/**
 * Creates a client (enabled).
 * @param now creation and last-modified time
 * @throws ServiceError parameter_invalid (419) when it is an identity source and the chain already
 *   has an active one; nothing is written then
 */
export async function insertServiceClient(db: CoreDb, values: NewServiceClient, now: Date): Promise<ServiceClientRow> {
  return runTransaction(db, async (tx) => {
    if (values.isIdentitySource) await requireNoOtherIdentitySource(tx, values.chainId, null);
    const [res] = await tx.insert(serviceClients).values({ ...values, createdDate: now, lastModifiedDate: now });
    const [row] = await tx.select().from(serviceClients).where(eq(serviceClients.id, Number(res.insertId)));
    return row!;
  });
}

/**
 * Updates the live client `id` of chain `chainId`. Setting `enabled` false deactivates every
 * active token of the client in the same transaction.
 * @param actor admin user id recorded as last_updated_by (of the client and of deactivated tokens)
 * @returns the row after the update, or null when no live client has that id in the chain
 * @throws ServiceError parameter_invalid (419) when the change makes it a second active identity
 *   source of the chain; nothing is written then
 */
export async function updateServiceClient(
  db: CoreDb,
  chainId: number,
  id: number,
  changes: ServiceClientChanges,
  actor: number | null,
  now: Date,
): Promise<ServiceClientRow | null> {
  return runTransaction(db, async (tx) => {
    const current = await lockLiveClient(tx, chainId, id);
    if (!current) return null;
    const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ServiceClientChanges;
    const next = { ...current, ...given };
    if (next.enabled && next.isIdentitySource && !(current.enabled && current.isIdentitySource)) {
      await requireNoOtherIdentitySource(tx, chainId, id);
    }
    await tx
      .update(serviceClients)
      .set({ ...given, lastUpdatedBy: actor, lastModifiedDate: now })
      .where(eq(serviceClients.id, id));
    if (given.enabled === false) await deactivateTokensOfClient(tx, chainId, id, actor, now);
    const [row] = await tx.select().from(serviceClients).where(eq(serviceClients.id, id));
    return row ?? null;
  });
}

/**
 * Soft-deletes the live client `id` of chain `chainId` (kept for audit, deleted_by set) and
 * deactivates all its tokens in the same transaction.
 * @param actor admin user id recorded as deleted_by and last_updated_by
 * @returns the row after deletion, or null when no live client has that id in the chain
 */
export async function deleteServiceClient(
  db: CoreDb,
  chainId: number,
  id: number,
  actor: number | null,
  now: Date,
): Promise<ServiceClientRow | null> {
  return runTransaction(db, async (tx) => {
    if (!(await lockLiveClient(tx, chainId, id))) return null;
    await tx
      .update(serviceClients)
      .set({ deleted: true, deletedBy: actor, lastUpdatedBy: actor, lastModifiedDate: now })
      .where(eq(serviceClients.id, id));
    await deactivateTokensOfClient(tx, chainId, id, actor, now);
    const [row] = await tx.select().from(serviceClients).where(eq(serviceClients.id, id));
    return row ?? null;
  });
}

async function lockLiveClient(tx: CoreTx, chainId: number, id: number): Promise<ServiceClientRow | null> {
  const [row] = await tx
    .select()
    .from(serviceClients)
    .where(and(eq(serviceClients.id, id), eq(serviceClients.chainId, chainId), eq(serviceClients.deleted, false)))
    .for("update");
  return row ?? null;
}

/**
 * The identity-source rule (spec, ServiceClient `is_identity_source`: "at most one active client
 * per chain should have it true"). The chain row is locked first, so two requests making two
 * clients identity sources at once are serialised and the second one sees the first.
 * @param exceptId the client being changed, which does not count against itself
 * @throws ServiceError parameter_invalid (419) naming the chain's current identity source
 */
async function requireNoOtherIdentitySource(tx: CoreTx, chainId: number, exceptId: number | null): Promise<void> {
  await tx.select({ id: chains.id }).from(chains).where(eq(chains.id, chainId)).for("update");
  const where: SQL[] = [
    eq(serviceClients.chainId, chainId),
    eq(serviceClients.isIdentitySource, true),
    eq(serviceClients.enabled, true),
    eq(serviceClients.deleted, false),
  ];
  if (exceptId !== null) where.push(ne(serviceClients.id, exceptId));
  const [other] = await tx.select({ id: serviceClients.id }).from(serviceClients).where(and(...where)).limit(1);
  if (other) {
    throw new ServiceError(
      "parameter_invalid",
      `is_identity_source: service client ${other.id} is already the chain's active identity source; disable it or set its is_identity_source to false first.`,
    );
  }
}
