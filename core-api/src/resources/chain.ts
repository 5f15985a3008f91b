/**
 * Chain in the Resources API (spec, "Chain (singular resource)", "Authentication": PUT/PATCH on
 * Chain need super-user access): `GET /resources/chain` (the chain of X-Service-Chain-ID) and
 * `GET|PUT|PATCH /resources/chain/{id}`, where {id} must be that chain (another id is 544 even
 * when the admin may see that chain: the header names the chain a request applies to). No POST,
 * DELETE or plural: the adapter offers none, so the engine answers 544.
 *
 * Property <-> column mapping is the chain's storage mapping (chains/chain-columns.ts), derived from the
 * declaration and checked when it loads; a chain record is read by chains/nested-record.ts, the
 * same way whether the chain is asked for itself or nested in another resource. PUT changes only
 * the properties sent (see the declaration). Clearing ip_whitelist_super_user_exemption is refused
 * with 419 when the super user making the change would then be outside the chain's allowed IP
 * ranges (ip-ranges/self-lockout.ts).
 */
import { chainResource } from "@service/shared/resources/chain";
import { eq } from "drizzle-orm";
import { chains } from "../db/schema.ts";
import { readChainRecord } from "../chains/nested-record.ts";
import { chainColumns } from "../chains/chain-columns.ts";
import { findCurrency, updateChain, type ChainChanges } from "../chains/chain-repository.ts";
import { ServiceError } from "../http/service-error.ts";
import { liveIpRanges } from "../ip-ranges/ip-range-repository.ts";
import { refuseSelfLockout } from "../ip-ranges/self-lockout.ts";
import { requirePublicTarget } from "../net/public-target.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceScope } from "./request-scope.ts";
import type { WriteValues } from "./write.ts";

/** The Chain adapter of the engine: reads need read access, writes super_user. */
export const chainAdapter: ResourceAdapter = {
  declaration: chainResource,
  putIsPatch: true,

  impliedTarget: (scope) => ({ property: "id", value: scope.chainId }),

  async findOne(scope, by) {
    if (by.property !== "id" || by.value !== scope.chainId) return null;
    return readChainRecord(scope.db, scope.chainId, scope.recursionLevel);
  },

  async update(scope, _target, values) {
    const changes = await toChanges(scope, values);
    const exemption = changes.ipWhitelistSuperUserExemption;
    if (exemption !== undefined && scope.writingAdmin) {
      const cidrs = (await liveIpRanges(scope.db, scope.chainId)).map((r) => r.cidr);
      refuseSelfLockout(scope.writingAdmin, { cidrs, exemption: exemption === true });
    }
    if (!(await updateChain(scope.db, scope.chainId, { ...changes, lastUpdatedBy: scope.actorAdminId }, scope.now))) return null;
    return readChainRecord(scope.db, scope.chainId, scope.recursionLevel);
  },
};

/**
 * Validated write values (W properties only: the engine refuses the rest) as column changes.
 * @throws ServiceError parameter_invalid (419) for a currency id that names no currency, or
 *   allowed_business_formats over 65535 bytes as JSON, or a jwt_jwks_url that is not, or does not
 *   resolve only to, public addresses (net/public-target.ts)
 */
async function toChanges(scope: ResourceScope, values: WriteValues): Promise<ChainChanges> {
  const changes = chainColumns.toColumns(values);
  if (changes.currencyId !== undefined && changes.currencyId !== null && !(await findCurrency(scope.db, changes.currencyId))) {
    throw new ServiceError("parameter_invalid", `currency: no currency with id ${changes.currencyId}.`);
  }
  await requireWholeReferralWindow(scope, changes);
  // core-api fetches this URL when a shopper token arrives (auth/jwt.ts): public addresses only.
  if (typeof changes.jwtJwksUrl === "string") await requirePublicTarget(changes.jwtJwksUrl, scope.targets, "jwt_jwks_url");
  return changes;
}

/**
 * The referral code submission window is set or cleared whole: after the change, its quantity and
 * unit are both set or both null.
 * @throws ServiceError parameter_invalid (419) for half a window
 */
async function requireWholeReferralWindow(scope: ResourceScope, changes: ChainChanges): Promise<void> {
  const q = changes.referralCodeSubmissionWindowQuantity;
  const u = changes.referralCodeSubmissionWindowUnit;
  if (q === undefined && u === undefined) return;
  const [stored] = await scope.db.select({ q: chains.referralCodeSubmissionWindowQuantity, u: chains.referralCodeSubmissionWindowUnit }).from(chains).where(eq(chains.id, scope.chainId));
  const quantity = q === undefined ? stored?.q ?? null : q;
  const unit = u === undefined ? stored?.u ?? null : u;
  if ((quantity === null) !== (unit === null)) {
    throw new ServiceError("parameter_invalid", "referral_code_submission_window_quantity and referral_code_submission_window_unit go together: set both, or clear both.");
  }
}
