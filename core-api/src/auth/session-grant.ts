/**
 * A login session and what its holder has on one chain, in one query (spec, "Authentication":
 * admin access levels; "AllowedIpRange"; "Common request headers": `X-Service-App-Hostname`
 * identifies the chain for end-user requests). The stored session decides who is calling, never
 * the headers sent with it:
 * - an admin session (whether or not the request names an app: the hostname is then ignored):
 *   the admin's account (it must be active: a deactivated admin's sessions fail their next
 *   request), the admin's permission row on the chain asked for, the chain (live) and its live
 *   allowed IP ranges;
 * - a shopper session: good only through an app of the chain it was opened for, so the request
 *   must name an app (`X-Service-App-Hostname`) of that live chain; the shopper's `active` flag
 *   (a deactivated shopper's session fails its next request). The chain is the app's.
 *
 * Session headers without an app can only be an admin's session: their statement joins neither
 * app nor shopper. With an app, the chain joined is the one asked for when the session is an
 * admin's and the app's when it is a shopper's (one CASE in the join). The ranges come as one row each (a LEFT JOIN), not
 * aggregated: GROUP_CONCAT is cut at group_concat_max_len (1024 bytes by default on MySQL 8) and
 * JSON_ARRAYAGG differs between MySQL and MariaDB, while a chain has few ranges and the other
 * columns merely repeat.
 */
import { and, eq, gt, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { compileSelect, qb } from "../db/compiled-select.ts";
import { chainHeadOf, packedChainHeadSelection, type ChainHead, type PackedChainHead } from "../chains/chain-columns.ts";
import { adminChainPermissions, adminUsers, allowedIpRanges, apps, chains, sessions, users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { UNKNOWN_APP } from "./apps.ts";
import type { SessionClaim } from "./credentials.ts";
import type { ChainGrant } from "./identity.ts";
import { addressAllowed } from "./ip-allowlist.ts";
import { levelsOfBits, permissionBitsSql } from "../db/permissions.ts";
import { sha256Hex, timingSafeEqualString } from "../crypto/secrets.ts";

/** What the session query needs besides the session claim. */
export interface SessionQuery {
  /** `X-Service-App-Hostname`; null when the request names no app */
  hostname: string | null;
  /** sessions expiring at or before it are dead */
  now: Date;
  /** the chain the request needs (for an admin); null to check the session alone */
  chainId: number | null;
  /** the request's canonical client address; null (unknown) is inside no range */
  clientIp: string | null;
}

const isAdmin = eq(sessions.kind, "admin");
const isShopper = eq(sessions.kind, "end_user");
/** An admin's chain is the one asked for (null: none), a shopper's the app's. */
const chainOfSession = sql`CASE WHEN ${sessions.kind} = 'admin' THEN ${sql.placeholder("chainId")} ELSE ${apps.chainId} END`;
/** The session named by its key's hash, unless expired. */
const liveSession = and(eq(sessions.keyHash, sql.placeholder("keyHash")), gt(sessions.expiresAt, sql.placeholder("now")));

/** What both statements read of an admin session. */
const ADMIN_FIELDS = {
  session: { id: sessions.id, kind: sessions.kind, userId: sessions.userId, keyHash: sessions.keyHash },
  adminId: adminUsers.id,
  // the chain's head: what access checks read and a chain nested at the default level shows
  // (packed: its yes / no columns in one, chains/chain-columns.ts)
  chain: packedChainHeadSelection,
  // the admin's levels on the chain, one column (db/permissions.ts)
  permissionBits: permissionBitsSql,
  cidr: allowedIpRanges.cidr,
};

/**
 * Session headers without an app (compiled once: db/compiled-select.ts): only an admin session
 * passes, so no app or shopper is joined and the chain is the one asked for (a null chainId: none).
 */
const adminSession = compileSelect(
  qb
    .select(ADMIN_FIELDS)
    .from(sessions)
    .leftJoin(adminUsers, and(isAdmin, eq(adminUsers.id, sessions.userId), eq(adminUsers.active, true)))
    .leftJoin(chains, and(eq(chains.id, sql.placeholder("chainId")), eq(chains.deleted, false)))
    .leftJoin(adminChainPermissions, and(isAdmin, eq(adminChainPermissions.adminUserId, sessions.userId), eq(adminChainPermissions.chainId, chains.id)))
    .leftJoin(allowedIpRanges, and(isAdmin, eq(allowedIpRanges.chainId, chains.id), eq(allowedIpRanges.deleted, false)))
    .where(liveSession),
  ["keyHash", "now", "chainId"],
);

/** Session headers with an app: an admin's session, or a shopper's of the app's chain (compiled once). */
const appSession = compileSelect(
  qb
    .select({ ...ADMIN_FIELDS, sessionChainId: sessions.chainId, appChainId: apps.chainId, user: { id: users.id, active: users.active } })
    .from(sessions)
    .leftJoin(adminUsers, and(isAdmin, eq(adminUsers.id, sessions.userId), eq(adminUsers.active, true)))
    .leftJoin(apps, and(isShopper, eq(apps.hostname, sql.placeholder("hostname"))))
    .leftJoin(chains, and(eq(chains.id, chainOfSession), eq(chains.deleted, false)))
    .leftJoin(adminChainPermissions, and(isAdmin, eq(adminChainPermissions.adminUserId, sessions.userId), eq(adminChainPermissions.chainId, chains.id)))
    .leftJoin(allowedIpRanges, and(isAdmin, eq(allowedIpRanges.chainId, chains.id), eq(allowedIpRanges.deleted, false)))
    .leftJoin(users, and(isShopper, eq(users.id, sessions.userId), eq(users.chainId, chains.id)))
    .where(liveSession),
  ["keyHash", "now", "chainId", "hostname"],
);

/** A row of either statement: the admin part. */
type AdminRow = {
  session: { id: number; kind: "admin" | "end_user"; userId: number; keyHash: string };
  adminId: number | null;
  chain: ChainHead | null;
  permissionBits: number | null;
  cidr: string | null;
};
type AppRow = AdminRow & { sessionChainId: number | null; appChainId: number | null; user: { id: number; active: boolean } | null };

/**
 * Checks the session `claim` and reads what its holder has on the chain (see the module comment).
 * @returns for an admin, the grant on `query.chainId` (kinds `["admin"]` when the admin has a
 *   permission row on the live chain, else empty with chain null or levels null); for a shopper,
 *   the grant on the app's chain (kinds `["end_user"]`, no levels)
 * @throws ServiceError no_valid_session (6, 401) when the key names no live session of that user,
 *   the admin account is inactive, or a shopper session comes without an app, through an unknown
 *   app, through another chain's app, or for an inactive shopper; the description says which
 */
export async function loadSessionGrant(db: CoreDb, claim: SessionClaim, query: SessionQuery): Promise<ChainGrant> {
  const { hostname, now, chainId, clientIp } = query;
  const keyHash = sha256Hex(claim.key);
  if (hostname === null) {
    const rows = unpackHead((await adminSession.run(db, { keyHash, now, chainId })) as AdminRow[]);
    const first = checked(rows[0], claim, keyHash);
    if (first.session.kind !== "admin") throw new ServiceError("no_valid_session", "A shopper session is good only with X-Service-App-Hostname.");
    return adminGrant(rows, clientIp);
  }
  const rows = unpackHead((await appSession.run(db, { keyHash, now, chainId, hostname })) as AppRow[]);
  const first = checked(rows[0], claim, keyHash);
  if (first.session.kind === "admin") return adminGrant(rows, clientIp);
  const { session, chain } = first;
  if (first.appChainId === null || !chain) throw new ServiceError("no_valid_session", UNKNOWN_APP);
  if (first.sessionChainId !== chain.id) throw new ServiceError("no_valid_session", "The session belongs to another app's chain.");
  if (!first.user?.active) throw new ServiceError("no_valid_session", "The shopper's account is not active.");
  return {
    auth: { kind: "end_user", userId: first.user.id, chainId: chain.id, sessionId: session.id },
    chain,
    kinds: ["end_user"],
    levels: null,
    addressAllowed: true,
  };
}

/** `rows` with the first row's chain head unpacked (the head is read from the first row only). */
function unpackHead<R extends AdminRow>(rows: R[]): R[] {
  const first = rows[0];
  if (first?.chain) first.chain = chainHeadOf(first.chain as unknown as PackedChainHead);
  return rows;
}

/**
 * The session row when the key names a live session of the user the headers name.
 * @throws ServiceError no_valid_session (6, 401) otherwise
 */
function checked<R extends AdminRow>(first: R | undefined, claim: SessionClaim, keyHash: string): R {
  if (!first || first.session.userId !== claim.userId || !timingSafeEqualString(first.session.keyHash, keyHash)) {
    throw new ServiceError("no_valid_session");
  }
  return first;
}

/**
 * An admin session's grant on the chain asked for, from its rows (one per live allowed IP range).
 * @throws ServiceError no_valid_session (6, 401) when the admin account is inactive
 */
function adminGrant(rows: readonly AdminRow[], clientIp: string | null): ChainGrant {
  const { session, chain, adminId, permissionBits } = rows[0]!;
  if (adminId === null) throw new ServiceError("no_valid_session");
  const auth = { kind: "admin" as const, userId: session.userId, sessionId: session.id, clientIp };
  const levels = chain ? levelsOfBits(permissionBits) : null;
  if (!chain || !levels) return { auth, chain, kinds: [], levels: null, addressAllowed: false };
  const cidrs = rows.flatMap((r) => (r.cidr === null ? [] : [r.cidr]));
  const exempt = levels.super_user && chain.ipWhitelistSuperUserExemption;
  return { auth, chain, kinds: ["admin"], levels, addressAllowed: addressAllowed({ chainId: chain.id, cidrs, exempt }, clientIp) };
}

