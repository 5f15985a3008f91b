/**
 * No self-lockout: without this check a super user could add an allowed IP range, change or delete one,
 * or clear the chain's `ip_whitelist_super_user_exemption`, so that their own current address is
 * excluded, and then had no way back into the chain but SQL. Such a write is refused with
 * parameter_invalid (419) and an explanation, before anything is written.
 *
 * Only admins are held to the ranges (spec, "AllowedIpRange": admin login requests), so only an
 * admin's write is checked, against the address of the request making it. Another admin's access
 * is not protected: the super user decides for the chain, just not against themselves by accident.
 */
import { ServiceError } from "../http/service-error.ts";
import { ipInRanges } from "./in-ranges.ts";

/** The admin making a write, as the chain's ranges see them. */
export interface WritingAdmin {
  /** canonical client address of the request; null when unknown (inside no range) */
  clientIp: string | null;
  /** whether the admin is a super user of the chain (exempt when the chain exempts super users) */
  superUser: boolean;
}

/** The chain's address rule as it would be after the write. */
export interface RangesAfterWrite {
  /** the live ranges (canonical CIDRs) */
  cidrs: readonly string[];
  /** the chain's ip_whitelist_super_user_exemption */
  exemption: boolean;
}

/**
 * Refuses a write after which `admin` could not reach the chain from its current address.
 * @param admin the admin making the write; null for a caller the ranges do not apply to (privileged)
 * @throws ServiceError parameter_invalid (419) naming the address and the way out, when the chain
 *   would restrict, the admin would not be exempt and the address would be inside no range
 */
export function refuseSelfLockout(admin: WritingAdmin | null, after: RangesAfterWrite): void {
  if (!admin || after.cidrs.length === 0 || (admin.superUser && after.exemption)) return;
  if (admin.clientIp !== null && ipInRanges(admin.clientIp, after.cidrs)) return;
  const who = admin.clientIp === null ? "your address (unknown to the service, so inside no range)" : `your address ${admin.clientIp}`;
  throw new ServiceError(
    "parameter_invalid",
    `This change would lock you out of the chain: ${who} would be outside its allowed IP ranges. ` +
      "Add a range that covers your address first" +
      (admin.superUser ? ", or keep ip_whitelist_super_user_exemption set." : "."),
  );
}
