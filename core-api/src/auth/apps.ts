/**
 * End-user apps (spec, "Common request headers": `X-Service-App-Hostname` identifies the chain for
 * end-user requests). A shopper's session or token must belong to that app's chain; an admin's
 * session sent with it stays the admin's (auth/session-grant.ts).
 */
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import type { CoreDb } from "../db/client.ts";
import { apps, chains } from "../db/schema.ts";
import type { ChainJwtSettings } from "./jwt.ts";
import { requestHeader } from "../http/request-headers.ts";

/** What a shopper request needs to know about its app's chain. */
export interface AppChain {
  chainId: number;
  jwt: ChainJwtSettings;
}

/**
 * The `X-Service-App-Hostname` header, trimmed and lower-cased (hostnames are case-insensitive).
 * @returns undefined when absent or blank
 */
export function readAppHostname(c: Context): string | undefined {
  const value = requestHeader(c, "x-service-app-hostname")?.trim().toLowerCase();
  return value ? value : undefined;
}

/**
 * The live chain of app `hostname`.
 * @returns null when no app has this hostname or its chain is deleted
 */
export async function findAppChain(db: CoreDb, hostname: string): Promise<AppChain | null> {
  const [row] = await db
    .select({ chainId: apps.chainId, issuer: chains.jwtIssuer, audience: chains.jwtAudience, jwksUrl: chains.jwtJwksUrl })
    .from(apps)
    .innerJoin(chains, and(eq(chains.id, apps.chainId), eq(chains.deleted, false)))
    .where(eq(apps.hostname, hostname))
    .limit(1);
  if (!row) return null;
  return { chainId: row.chainId, jwt: { issuer: row.issuer, audience: row.audience, jwksUrl: row.jwksUrl } };
}

/** Description of the error for an unknown app hostname (no_valid_session, 6). */
export const UNKNOWN_APP = "X-Service-App-Hostname names no app.";
