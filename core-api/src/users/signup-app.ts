/**
 * The app a privileged add-user names with X-Service-App-Hostname (handbook, "The user": it must
 * be an app of the token's chain; its kind gives the signup channel), and whether the calling
 * service client is its chain's identity source (then the channel is `platform`): one query.
 */
import { and, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { apps, chains, serviceClients } from "../db/schema.ts";
import { APP_KINDS, type AppKind } from "./signup-channel.ts";

/** An app of a live chain. */
export interface SignupApp {
  chainId: number;
  kind: AppKind;
  /** whether service client `serviceClientId` is an identity source of the app's chain */
  clientIsIdentitySource: boolean;
}

/**
 * The app `hostname` (lower case) of a live chain, with the service client's flag.
 * @returns null when no app of a live chain has this hostname
 */
export async function findSignupApp(db: CoreDb, hostname: string, serviceClientId: number): Promise<SignupApp | null> {
  const [row] = await db
    .select({ chainId: apps.chainId, kind: apps.kind, identitySource: serviceClients.isIdentitySource })
    .from(apps)
    .innerJoin(chains, and(eq(chains.id, apps.chainId), eq(chains.deleted, false)))
    .leftJoin(serviceClients, and(eq(serviceClients.id, serviceClientId), eq(serviceClients.chainId, apps.chainId), eq(serviceClients.deleted, false)))
    .where(eq(apps.hostname, hostname))
    .limit(1);
  if (!row) return null;
  // A kind the table does not know (written by hand) counts as the default.
  const kind = (APP_KINDS as readonly string[]).includes(row.kind) ? (row.kind as AppKind) : "native_app";
  return { chainId: row.chainId, kind, clientIsIdentitySource: row.identitySource === true };
}
