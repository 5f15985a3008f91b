/**
 * Storage of a chain's authentication point (db/tables/authentication-points.ts; handbook, "Sync
 * between the webshop and the platform"): the webshop connector's base URL and its integration
 * token, sealed with the service's secret box (shared/src/secret-box.ts) for the purpose
 * `chain.integration_token:<chain id>`, so a sealed token copied to another chain's row or column
 * does not open there. Set by the operator (`npm run admin -- set-authentication-point`) and the
 * demo seed; read by the shopper login through the webshop (auth/webshop-login.ts).
 */
import { and, eq } from "drizzle-orm";
import type { SecretBox } from "@service/shared/secret-box";
import type { CoreDb } from "../db/client.ts";
import { authenticationPoints, chains } from "../db/schema.ts";
import { runStatement, runTransaction } from "@service/shared/node";

/** What the integration token is sealed for (with the chain id appended). */
export const INTEGRATION_TOKEN_PURPOSE = "chain.integration_token";
/** Longest base URL and integration token accepted. */
export const MAX_BASE_URL = 512;
export const MAX_INTEGRATION_TOKEN = 512;

export type AuthenticationPointRow = typeof authenticationPoints.$inferSelect;

/** A chain's webshop connector, ready to be called: its token opened. */
export interface WebshopEndpoint {
  chainId: number;
  /** without a trailing slash */
  baseUrl: string;
  integrationToken: string;
}

/** The purpose the integration token of chain `chainId` is sealed for. */
export function integrationTokenPurpose(chainId: number): string {
  return `${INTEGRATION_TOKEN_PURPOSE}:${chainId}`;
}

/**
 * Checks and normalises what an operator gives.
 * @param input.baseUrl an absolute http(s) URL without query, fragment or credentials; a trailing
 *   slash is dropped
 * @param input.integrationToken the bearer token the connector accepts: 16 to 512 characters,
 *   no whitespace
 * @returns the normalised values, or the reason they are refused
 */
export function checkAuthenticationPointInput(input: { baseUrl: string; integrationToken: string }):
  { ok: true; baseUrl: string; integrationToken: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(input.baseUrl.trim());
  } catch {
    return { ok: false, reason: "the base URL must be an absolute http(s) URL, for example http://127.0.0.1:8081" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "the base URL must use http or https" };
  if (url.username || url.password || url.search || url.hash) return { ok: false, reason: "the base URL must carry no credentials, query or fragment" };
  const baseUrl = url.href.replace(/\/+$/, "");
  if (baseUrl.length > MAX_BASE_URL) return { ok: false, reason: `the base URL must be at most ${MAX_BASE_URL} characters` };
  const token = input.integrationToken;
  if (token.length < 16 || token.length > MAX_INTEGRATION_TOKEN || /\s/.test(token)) {
    return { ok: false, reason: `the integration token must be 16 to ${MAX_INTEGRATION_TOKEN} characters without spaces` };
  }
  return { ok: true, baseUrl, integrationToken: token };
}

/** The authentication point of chain `chainId`, or null when it has none. */
export async function findAuthenticationPoint(db: CoreDb, chainId: number): Promise<AuthenticationPointRow | null> {
  const [row] = await db.select().from(authenticationPoints).where(eq(authenticationPoints.chainId, chainId)).limit(1);
  return row ?? null;
}

/**
 * Opens a stored authentication point's token.
 * @throws SecretBoxError when the token was sealed under another SERVICE_SECRET_KEY or altered
 */
export async function openAuthenticationPoint(box: SecretBox, row: AuthenticationPointRow): Promise<WebshopEndpoint> {
  return {
    chainId: row.chainId,
    baseUrl: row.baseUrl,
    integrationToken: await box.open(row.integrationTokenSealed, integrationTokenPurpose(row.chainId)),
  };
}

/**
 * Sets the authentication point of the live chain `input.chainId` (creating or replacing it).
 * @param input values already checked with checkAuthenticationPointInput
 * @param input.actor admin user id recorded as last_updated_by; null for the operator CLI or the seed
 * @returns the stored row and whether it was created (false: replaced), or null when there is no
 *   live chain `chainId` (nothing written)
 */
export async function setAuthenticationPoint(
  db: CoreDb,
  box: SecretBox,
  input: { chainId: number; baseUrl: string; integrationToken: string; actor: number | null },
  now: Date,
): Promise<{ row: AuthenticationPointRow; created: boolean } | null> {
  const sealed = await box.seal(input.integrationToken, integrationTokenPurpose(input.chainId));
  return runTransaction(db, async (tx) => {
    const [chain] = await tx.select({ id: chains.id }).from(chains).where(and(eq(chains.id, input.chainId), eq(chains.deleted, false))).for("update");
    if (!chain) return null;
    const [existing] = await tx.select({ id: authenticationPoints.id }).from(authenticationPoints).where(eq(authenticationPoints.chainId, input.chainId));
    const values = { baseUrl: input.baseUrl, integrationTokenSealed: sealed, lastUpdatedBy: input.actor, lastModifiedDate: now };
    if (existing) await tx.update(authenticationPoints).set(values).where(eq(authenticationPoints.id, existing.id));
    else await tx.insert(authenticationPoints).values({ ...values, chainId: input.chainId, kind: "webshop", createdDate: now });
    const [row] = await tx.select().from(authenticationPoints).where(eq(authenticationPoints.chainId, input.chainId));
    return { row: row!, created: !existing };
  });
}

/**
 * Removes the authentication point of chain `chainId`: shoppers of its apps log in with the
 * platform's passwords again.
 * @returns whether the chain had one
 */
export async function removeAuthenticationPoint(db: CoreDb, chainId: number): Promise<boolean> {
  const [res] = await runStatement(() => db.delete(authenticationPoints).where(eq(authenticationPoints.chainId, chainId)));
  return res.affectedRows > 0;
}
