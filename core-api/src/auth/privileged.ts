/**
 * Privileged authentication (spec, "Authentication": Privileged; "AccessToken": Scope): a service
 * client sends `Authorization: Bearer {access_token_uuid}:{token_secret}`.
 *
 * Decisions (the spec leaves them open; handbook, "Decisions the spec leaves open"):
 * - The token is verified against the database on EVERY request (clients/verify.ts, no cache), so
 *   a deactivated or deleted token, or a disabled or deleted client, fails its very next request
 *   with access_token_invalid (266, HTTP 401).
 * - An Authorization header that cannot be a valid credential (another scheme, several schemes or
 *   tokens, no colon, an id that is not a UUID, an empty secret) is also 266: it names no token.
 *   Every verification failure (unknown id, wrong secret, revoked) has one and the same body, so a
 *   caller cannot tell whether a token id exists.
 * - Scope `chain:{id}` grants every admin access level on that chain except super_user: the spec's
 *   super-user-only writes (AccessToken, ServiceClient, AllowedIpRange writes, Chain PUT/PATCH) name
 *   a super-user ADMIN, which a service client is not, so a token can never widen its own access.
 * - Scope `read_businesses:{id}` grants only reads of that chain's businesses (Resources GET and
 *   get-businesses).
 * - Chain IP allowlists apply to admins (spec: "admin login requests"); they do not apply to tokens.
 */
import { verifyAccessToken } from "../clients/verify.ts";
import type { CoreDb } from "../db/client.ts";
import { ServiceError } from "../http/service-error.ts";
import type { CallerKind } from "./access-table.ts";
import type { ChainGrant, PrivilegedAuth } from "./identity.ts";
import { looksLikeJwt } from "./jwt.ts";
import { ACCESS_LEVELS, type AccessLevels } from "../db/permissions.ts";

/** What an Authorization header holds. */
export type BearerCredential =
  | { kind: "none" }
  | { kind: "jwt"; token: string }
  | { kind: "privileged"; tokenId: string; secret: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** One description for every failed verification: unknown id and wrong secret must read alike. */
const REFUSED = "The access token is unknown, inactive or deleted, or its service client is disabled or deleted.";

/**
 * Classifies the `Authorization` header.
 * @param header the raw header value; undefined or blank means no credential
 * @returns none, a shopper JWT (auth/jwt.ts validates it), or a privileged `uuid:secret` pair
 * @throws ServiceError access_token_invalid (266, HTTP 401) for a header that cannot be a valid
 *   credential: another scheme, several schemes or tokens, a token that is neither a JWT nor
 *   `{uuid}:{secret}`, an id that is not a UUID, or an empty secret; the description says which
 */
export function parseAuthorization(header: string | undefined): BearerCredential {
  if (header === undefined || header.trim() === "") return { kind: "none" };
  const match = /^Bearer +(\S+)$/i.exec(header.trim());
  if (!match) throw malformed("use exactly one `Bearer {access_token_id}:{token_secret}` credential");
  const token = match[1]!;
  if (looksLikeJwt(token)) return { kind: "jwt", token };
  const sep = token.indexOf(":");
  if (sep < 0) throw malformed("the bearer token must be {access_token_id}:{token_secret}");
  const tokenId = token.slice(0, sep);
  const secret = token.slice(sep + 1);
  if (!UUID.test(tokenId)) throw malformed("the access token id must be a UUID");
  if (secret === "") throw malformed("the token secret is empty");
  return { kind: "privileged", tokenId, secret };
}

/**
 * Verifies a privileged credential against the database (no cache) and reads what its scopes
 * grant on chain `chainId`, in one query (clients/verify.ts).
 * @param chainId the chain the request needs; null to verify the token alone
 * @returns the grant: kinds `chain_scope` and `read_businesses` for a `chain:{id}` scope (levels:
 *   every admin level but super_user), `read_businesses` alone for a `read_businesses:{id}` scope,
 *   none when no scope names the chain or the chain is missing or deleted
 * @throws ServiceError access_token_invalid (266, HTTP 401), one body for an unknown id, a wrong
 *   secret, an inactive or deleted token and a disabled or deleted client
 */
export async function loadPrivilegedGrant(
  db: CoreDb,
  claim: { tokenId: string; secret: string },
  chainId: number | null,
): Promise<ChainGrant> {
  const v = await verifyAccessToken(db, claim.tokenId, claim.secret, chainId ?? undefined);
  if (!v.valid) throw new ServiceError(v.code, REFUSED);
  const auth: PrivilegedAuth = { kind: "privileged", tokenId: v.tokenId, serviceClientId: v.serviceClientId, chainId: v.chainId, scopes: v.scopes };
  const chain = v.chain ?? null;
  const names = (key: string) => chain !== null && v.scopes.some((s) => s.key === key && s.value === String(chain.id));
  const kinds: CallerKind[] = names("chain") ? ["chain_scope", "read_businesses"] : names("read_businesses") ? ["read_businesses"] : [];
  return { auth, chain, kinds, levels: kinds.includes("chain_scope") ? CHAIN_SCOPE_LEVELS : null, addressAllowed: true };
}

/** What a `chain:{id}` scope holds: every admin level of the chain except super_user. */
const CHAIN_SCOPE_LEVELS = Object.fromEntries(ACCESS_LEVELS.map((l) => [l, l !== "super_user"])) as AccessLevels;

function malformed(why: string): ServiceError {
  return new ServiceError("access_token_invalid", `Malformed Authorization header: ${why}.`);
}
