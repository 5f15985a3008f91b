/**
 * Allowed IP ranges of admin access (spec, "AllowedIpRange"; Chain
 * `ip_whitelist_super_user_exemption`): when a chain has live ranges, admins reach it only from an
 * address inside one of them; a super user of the chain is exempt when the chain says so.
 *
 * Decision (an admin may hold rights on several chains, and login names no chain): the rule is
 * enforced per chain on every admin request (auth/session-grant.ts reads the ranges with the
 * session; auth/access-table.ts verdictOf applies them), against that request's client
 * address, and login is refused when no chain of the admin would accept the address (a session that
 * could do nothing is not handed out), with the answer a wrong password gets (auth/login.ts), so
 * that login outside the ranges tells nothing about the password. Checking only at login would let an admin of chains A
 * (restricted) and B (open) log in from anywhere and then act on A; checking per request also means
 * a new or deleted range applies to the very next request, and a stolen session key is useless
 * outside the ranges. GitHub's organisation IP allow lists work the same way.
 */
import { and, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { adminChainPermissions, allowedIpRanges, chains } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { ipInRanges } from "../ip-ranges/in-ranges.ts";

/** What decides admin access to one chain by address. */
export interface ChainAddressRule {
  chainId: number;
  /** live ranges of the chain (canonical CIDRs); empty: the chain does not restrict */
  cidrs: string[];
  /** the admin is a super user of the chain and the chain exempts super users */
  exempt: boolean;
}

/**
 * Whether `rule` lets an admin in from `address`.
 * @param address canonical client address; null (unknown) is inside no range
 */
export function addressAllowed(rule: ChainAddressRule, address: string | null): boolean {
  if (rule.cidrs.length === 0 || rule.exempt) return true;
  return address !== null && ipInRanges(address, rule.cidrs);
}

/**
 * The address rules of every live chain admin `adminUserId` has rights on (one query).
 * @returns one rule per chain; empty when the admin has no live chain
 */
export async function loadAdminAddressRules(db: CoreDb, adminUserId: number): Promise<ChainAddressRule[]> {
  const rows = await db
    .select({
      chainId: adminChainPermissions.chainId,
      superUser: adminChainPermissions.superUser,
      exemption: chains.ipWhitelistSuperUserExemption,
      cidr: allowedIpRanges.cidr,
    })
    .from(adminChainPermissions)
    .innerJoin(chains, and(eq(chains.id, adminChainPermissions.chainId), eq(chains.deleted, false)))
    .leftJoin(allowedIpRanges, and(eq(allowedIpRanges.chainId, chains.id), eq(allowedIpRanges.deleted, false)))
    .where(eq(adminChainPermissions.adminUserId, adminUserId));
  const rules = new Map<number, ChainAddressRule>();
  for (const row of rows) {
    let rule = rules.get(row.chainId);
    if (!rule) rules.set(row.chainId, (rule = { chainId: row.chainId, cidrs: [], exempt: row.superUser && row.exemption }));
    if (row.cidr !== null) rule.cidrs.push(row.cidr);
  }
  return [...rules.values()];
}

/**
 * Whether admin `adminUserId` may log in from `address`: yes when at least one of the admin's
 * chains accepts it, or when the admin has no chain at all (nothing to protect).
 */
export async function adminLoginAllowed(db: CoreDb, adminUserId: number, address: string | null): Promise<boolean> {
  const rules = await loadAdminAddressRules(db, adminUserId);
  return rules.length === 0 || rules.some((rule) => addressAllowed(rule, address));
}

/**
 * The error for an address outside the allowed IP ranges.
 * @param where what refused, for example `chain 3` or `any chain of this admin`
 */
export function addressRefused(address: string | null, where: string): ServiceError {
  const who = address === null ? "an unknown address" : `address ${address}`;
  return new ServiceError(
    "permission_denied_or_non_existent",
    `Admin access from ${who} is not allowed: it is outside the allowed IP ranges of ${where}.`,
  );
}
