/**
 * An admin session and its access to one chain in one query (spec, "Authentication": admin
 * access levels; "AllowedIpRange"): the live session by its key, the admin's account (it must be
 * active: a deactivated admin's sessions fail their next request), the admin's permission row on
 * the chain, the chain (live) and its live allowed IP ranges.
 *
 * The ranges come as one row each (a LEFT JOIN), not aggregated: GROUP_CONCAT is cut at
 * group_concat_max_len (1024 bytes by default on MySQL 8) and JSON_ARRAYAGG differs between MySQL
 * and MariaDB, while a chain has few ranges and the other columns merely repeat.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { chainColumns } from "../chains/chain-columns.ts";
import { adminChainPermissions, adminUsers, allowedIpRanges, chains, sessions } from "../db/schema.ts";
import type { SessionClaim } from "./credentials.ts";
import type { ChainGrant } from "./identity.ts";
import { addressAllowed } from "./ip-allowlist.ts";
import { levelsOf } from "./permissions.ts";
import { sha256Hex, timingSafeEqualString } from "./secrets.ts";

/**
 * Checks the admin session `claim` and reads what the admin holds on chain `chainId`.
 * @param chainId the chain the request needs; null to check the session alone
 * @param now sessions expiring at or before it are dead
 * @param clientIp the request's canonical client address; null (unknown) is inside no range
 * @returns the grant (kinds `["admin"]` when the admin has a permission row on the live chain,
 *   else empty with chain null or levels null); null when the key names no live admin session of
 *   that user, or the admin account is inactive
 */
export async function loadAdminGrant(
  db: CoreDb,
  claim: SessionClaim,
  now: Date,
  chainId: number | null,
  clientIp: string | null,
): Promise<ChainGrant | null> {
  const keyHash = await sha256Hex(claim.key);
  const onChain = chainId === null ? sql`false` : and(eq(chains.id, chainId), eq(chains.deleted, false));
  const rows = await db
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      keyHash: sessions.keyHash,
      // the chain as its resource reads it (with app and currency), so a nested chain needs no query
      chain: chainColumns.selection,
      permission: adminChainPermissions,
      cidr: allowedIpRanges.cidr,
    })
    .from(sessions)
    .innerJoin(adminUsers, and(eq(adminUsers.id, sessions.userId), eq(adminUsers.active, true)))
    .leftJoin(chains, onChain)
    .leftJoin(adminChainPermissions, and(eq(adminChainPermissions.adminUserId, sessions.userId), eq(adminChainPermissions.chainId, chains.id)))
    .leftJoin(allowedIpRanges, and(eq(allowedIpRanges.chainId, chains.id), eq(allowedIpRanges.deleted, false)))
    .where(and(eq(sessions.keyHash, keyHash), eq(sessions.kind, "admin"), gt(sessions.expiresAt, now)));
  const first = rows[0];
  if (!first || first.userId !== claim.userId || !timingSafeEqualString(first.keyHash, keyHash)) return null;
  const auth = { kind: "admin" as const, userId: first.userId, sessionId: first.sessionId, clientIp };
  const levels = first.chain ? levelsOf(first.permission) : null;
  if (!first.chain || !levels) return { auth, chain: first.chain, kinds: [], levels: null, addressAllowed: false };
  const cidrs = rows.flatMap((r) => (r.cidr === null ? [] : [r.cidr]));
  const exempt = levels.super_user && first.chain.ipWhitelistSuperUserExemption;
  return { auth, chain: first.chain, kinds: ["admin"], levels, addressAllowed: addressAllowed({ chainId: first.chain.id, cidrs, exempt }, clientIp) };
}
