/**
 * Seeders and row readers for the ServiceClient / AccessToken tests: clients and tokens are
 * written through the repositories, so read tests do not depend on POST.
 */
import { eq } from "drizzle-orm";
import { newSecret, sha256Hex } from "../crypto/secrets.ts";
import type { CoreDb } from "../db/client.ts";
import { accessTokens, serviceClients } from "../db/schema.ts";
import { insertAccessToken, type AccessTokenRow } from "./access-tokens.ts";
import { insertServiceClient, type NewServiceClient, type ServiceClientRow } from "./service-clients.ts";

/** Creates a client of `chainId` (default name "Client"). */
export function seedClient(
  db: CoreDb,
  chainId: number,
  now: Date,
  values: Partial<Omit<NewServiceClient, "chainId">> = {},
): Promise<ServiceClientRow> {
  return insertServiceClient(db, { name: "Client", lastUpdatedBy: null, ...values, chainId }, now);
}

/** Creates an active token of client `clientId` (scope default `chain:{chainId}`); returns its row and plain secret. */
export async function seedToken(
  db: CoreDb,
  chainId: number,
  clientId: number,
  now: Date,
  scope = `chain:${chainId}`,
): Promise<{ row: AccessTokenRow; secret: string }> {
  const secret = newSecret();
  const row = await insertAccessToken(
    db,
    { id: crypto.randomUUID(), chainId, serviceClientId: clientId, scope, secretHash: sha256Hex(secret), lastUpdatedBy: null },
    now,
  );
  return { row, secret };
}

/** The stored token row (deleted ones included), or undefined. */
export async function tokenRow(db: CoreDb, id: string): Promise<AccessTokenRow | undefined> {
  return (await db.select().from(accessTokens).where(eq(accessTokens.id, id)))[0];
}

/** The stored client row (deleted ones included), or undefined. */
export async function clientRow(db: CoreDb, id: number): Promise<ServiceClientRow | undefined> {
  return (await db.select().from(serviceClients).where(eq(serviceClients.id, id)))[0];
}

/** Every token row of the database, for "nothing was written" assertions. */
export async function allTokens(db: CoreDb): Promise<AccessTokenRow[]> {
  return db.select().from(accessTokens);
}

/** Every client row of the database, for "nothing was written" assertions. */
export async function allClients(db: CoreDb): Promise<ServiceClientRow[]> {
  return db.select().from(serviceClients);
}
