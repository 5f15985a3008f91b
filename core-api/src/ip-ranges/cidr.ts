/**
 * CIDR ranges of the allowed IP ranges (spec, "AllowedIpRange": cidr, format cidr): the one
 * canonical text form they are stored, compared and rendered in, and the spec's error for a
 * malformed one. The parsing rules (strict IPv4, no zone, IPv4-mapped ranges stored as IPv4) are
 * the shared ones of `@service/shared/ip-address`, which the client address follows too. Pure: no I/O.
 */
import { formatCidr, parseCidr } from "@service/shared/ip-address";
import { ServiceError } from "../http/service-error.ts";

/**
 * The canonical form of a CIDR range (see the module comment).
 * @example normaliseCidr("192.168.1.77/24") === "192.168.1.0/24"
 * @example normaliseCidr("2001:DB8:0:0::1/32") === "2001:db8::/32"
 * @example normaliseCidr("10.0.0.1") === "10.0.0.1/32"
 * @throws ServiceError parameter_invalid (419) when `input` is not an IPv4 or IPv6 range or address
 */
export function normaliseCidr(input: string): string {
  const parsed = parseCidr(input);
  if (!parsed) {
    throw new ServiceError("parameter_invalid", `cidr: "${input.slice(0, 64)}" is not an IPv4 or IPv6 range (for example 192.0.2.0/24).`);
  }
  return formatCidr(parsed);
}
