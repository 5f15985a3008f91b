/**
 * Verification of a privileged credential `Authorization: Bearer {uuid}:{token_secret}` (spec,
 * "Authentication": Privileged; "A request whose access token is inactive or deleted, or whose
 * service client is disabled or deleted, fails with access_token_invalid (266)").
 *
 * The outcome is a value, never an exception (handbook, "Expected outcomes are values"); only a
 * database fault throws. Nothing is cached: a revocation is seen by the very next request
 * (handbook, "revocation": immediate).
 */
import { and, eq, sql } from "drizzle-orm";
import { sha256Hex, timingSafeEqualString } from "../crypto/secrets.ts";
import type { CoreDb } from "../db/client.ts";
import { compileSelect, qb } from "../db/compiled-select.ts";
import { chainHeadOf, packedChainHeadSelection, type ChainHead, type PackedChainHead } from "../chains/chain-columns.ts";
import { accessTokens, chains, serviceClients } from "../db/schema.ts";
import { parseScopeFields, type ScopeField } from "./token-scopes.ts";

export type TokenVerification =
  | {
      valid: true;
      tokenId: string;
      serviceClientId: number;
      chainId: number;
      scopes: ScopeField[];
      /** only when a chain was asked for: that chain's row when it exists and is live, else null */
      chain?: ChainHead | null;
    }
  | { valid: false; code: "access_token_invalid" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Compared against when there is no stored hash, so a miss costs the same comparison as a hit. */
const NO_HASH = "0".repeat(64);
const INVALID = { valid: false, code: "access_token_invalid" } as const;

/** A row of the token statement. */
type TokenRow = {
  id: string;
  chainId: number;
  scope: string;
  secretHash: string;
  active: boolean;
  deleted: boolean;
  clientId: number;
  clientEnabled: boolean;
  clientDeleted: boolean;
  chain: PackedChainHead | null;
};

/**
 * The token, its client and the chain asked for (a null chainId joins none), compiled once
 * (db/compiled-select.ts).
 */
const tokenWithChain = compileSelect(
  qb
    .select({
      id: accessTokens.id,
      chainId: accessTokens.chainId,
      scope: accessTokens.scope,
      secretHash: accessTokens.secretHash,
      active: accessTokens.active,
      deleted: accessTokens.deleted,
      clientId: serviceClients.id,
      clientEnabled: serviceClients.enabled,
      clientDeleted: serviceClients.deleted,
      // the chain's head: what access checks read and a chain nested at the default level shows
      // (packed: its yes / no columns in one, chains/chain-columns.ts)
      chain: packedChainHeadSelection,
    })
    .from(accessTokens)
    .innerJoin(
      serviceClients,
      and(eq(serviceClients.id, accessTokens.serviceClientId), eq(serviceClients.chainId, accessTokens.chainId)),
    )
    .leftJoin(chains, and(eq(chains.id, sql.placeholder("chainId")), eq(chains.deleted, false)))
    .where(eq(accessTokens.id, sql.placeholder("tokenId")))
    .limit(1),
  ["tokenId", "chainId"],
);

/**
 * Checks token `tokenId` and its `secret`.
 * @param tokenId the access token's UUID (any letter case)
 * @param secret the token_secret as handed out at creation
 * @param chainId a chain the request needs, read in the same query (auth/privileged.ts); its
 *   row is returned as `chain` (null when missing or deleted)
 * @returns valid with the token, its client, its chain and its scope fields; or
 *   `{valid: false, code: "access_token_invalid"}` (266, HTTP 401 when raised) for an unknown,
 *   inactive or deleted token, a disabled or deleted client, or a wrong secret (compared in
 *   constant time on the SHA-256 hashes)
 * @example
 *   const v = await verifyAccessToken(db, id, secret);
 *   if (!v.valid) throw new ServiceError(v.code);
 */
export async function verifyAccessToken(
  db: CoreDb,
  tokenId: string,
  secret: string,
  chainId?: number,
): Promise<TokenVerification> {
  const presented = sha256Hex(secret);
  if (!UUID.test(tokenId)) return INVALID;
  const [row] = (await tokenWithChain.run(db, { tokenId: tokenId.toLowerCase(), chainId: chainId ?? null })) as Array<TokenRow | undefined>;
  const secretMatches = timingSafeEqualString(presented, row?.secretHash ?? NO_HASH);
  if (!row || !secretMatches || !row.active || row.deleted || !row.clientEnabled || row.clientDeleted) return INVALID;
  const scopes = parseScopeFields(row.scope);
  const verified = { valid: true as const, tokenId: row.id, serviceClientId: row.clientId, chainId: row.chainId, scopes };
  return chainId === undefined ? verified : { ...verified, chain: row.chain === null ? null : chainHeadOf(row.chain) };
}
