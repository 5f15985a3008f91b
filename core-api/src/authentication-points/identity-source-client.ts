/**
 * The service client that speaks for a chain's authentication point (spec, "ServiceClient":
 * `is_identity_source`, "true only for a client associated with an authentication point; at most
 * one active client per chain"; handbook, "The user": add-user by it gives signup channel
 * `platform`). The connector calls the core API with a chain-scope access token of this client.
 */
import { and, asc, eq } from "drizzle-orm";
import { newSecret, sha256Hex } from "../crypto/secrets.ts";
import { insertAccessToken } from "../clients/access-tokens.ts";
import { insertServiceClient, type ServiceClientRow } from "../clients/service-clients.ts";
import type { CoreDb } from "../db/client.ts";
import { accessTokens, serviceClients } from "../db/schema.ts";

/** A privileged access token: send it as `Authorization: Bearer {id}:{secret}`. */
export interface PrivilegedToken {
  /** lower-case UUID */
  id: string;
  secret: string;
}

/** Default name of a client created here. */
export const IDENTITY_SOURCE_CLIENT_NAME = "Webshop connector";

/** The chain's active (enabled, not deleted) identity-source client, or null. */
export async function findIdentitySourceClient(db: CoreDb, chainId: number): Promise<ServiceClientRow | null> {
  const [row] = await db
    .select()
    .from(serviceClients)
    .where(and(eq(serviceClients.chainId, chainId), eq(serviceClients.isIdentitySource, true), eq(serviceClients.enabled, true), eq(serviceClients.deleted, false)))
    .orderBy(asc(serviceClients.id))
    .limit(1);
  return row ?? null;
}

/**
 * Makes sure chain `chainId` has an active identity-source client with a chain-scope token.
 * - No such client: one is created (`IDENTITY_SOURCE_CLIENT_NAME`) with a token: `token` when
 *   given, else a new random one.
 * - A client exists: it is kept; `token`, when given and not stored yet, is added to it (so a
 *   seeded token is valid whichever start created the client); without `token` nothing is written.
 * @param token a token to store (the demo seed's `SEED_IDENTITY_TOKEN`); only its SHA-256 is kept
 * @returns the client, whether it was created, and the token when one was stored now (its secret
 *   exists nowhere else: print it once)
 * @throws ServiceError parameter_invalid (419) when a concurrent write made another active
 *   identity source first (clients/service-clients.ts); nothing is written then
 */
export async function ensureIdentitySourceClient(
  db: CoreDb,
  chainId: number,
  now: Date,
  token?: PrivilegedToken,
): Promise<{ client: ServiceClientRow; created: boolean; token: PrivilegedToken | null }> {
  let client = await findIdentitySourceClient(db, chainId);
  const created = client === null;
  client ??= await insertServiceClient(db, { chainId, name: IDENTITY_SOURCE_CLIENT_NAME, isIdentitySource: true, lastUpdatedBy: null }, now);
  const wanted = token ?? (created ? { id: crypto.randomUUID(), secret: newSecret() } : null);
  if (wanted === null) return { client, created, token: null };
  const [known] = await db.select({ id: accessTokens.id }).from(accessTokens).where(eq(accessTokens.id, wanted.id)).limit(1);
  if (known) return { client, created, token: null };
  await insertAccessToken(
    db,
    { id: wanted.id, chainId, serviceClientId: client.id, scope: `chain:${chainId}`, secretHash: await sha256Hex(wanted.secret), lastUpdatedBy: null },
    now,
  );
  return { client, created, token: wanted };
}
