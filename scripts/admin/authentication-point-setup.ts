/**
 * Operator tasks behind `npm run admin -- set-authentication-point` / `clear-authentication-point`
 * (handbook, "Sync between the webshop and the platform"): point a chain at its webshop connector
 * (base URL and integration token, the token sealed under SERVICE_SECRET_KEY) and make sure the
 * chain has an identity-source service client with a chain-scope access token, which the
 * connector calls the core API with. The Chain resource cannot do it: the spec marks
 * `authentication_point` read-only. Inputs are checked before anything is written; a refusal is a
 * value with nothing written.
 */
import type { SecretBox } from "@service/shared/secret-box";
import {
  checkAuthenticationPointInput, removeAuthenticationPoint, setAuthenticationPoint,
} from "../../core-api/src/authentication-points/authentication-point-repository.ts";
import { ensureIdentitySourceClient, type PrivilegedToken } from "../../core-api/src/authentication-points/identity-source-client.ts";
import type { CoreDb } from "../../core-api/src/db/client.ts";
import type { Refusal } from "./chain-setup.ts";

/** What set-authentication-point did. */
export interface AuthenticationPointSetup {
  /** false: the chain's earlier authentication point was replaced */
  created: boolean;
  baseUrl: string;
  identityClient: { id: number; name: string; created: boolean };
  /** the access token made now (its secret is shown nowhere else); null when the client existed */
  token: PrivilegedToken | null;
}

/**
 * Sets chain `chainId`'s authentication point and ensures its identity-source client.
 * @param input.token the identity-source client's token to store (the demo seed's); default a
 *   new one when the client is created now
 * @returns what was done, or a refusal (bad URL or token, no live chain) with nothing written
 */
export async function setChainAuthenticationPoint(
  db: CoreDb,
  box: SecretBox,
  input: { chainId: number; baseUrl: string; integrationToken: string; token?: PrivilegedToken },
  now: Date = new Date(),
): Promise<{ ok: true; setup: AuthenticationPointSetup } | Refusal> {
  const checked = checkAuthenticationPointInput(input);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const stored = await setAuthenticationPoint(db, box, { chainId: input.chainId, baseUrl: checked.baseUrl, integrationToken: checked.integrationToken, actor: null }, now);
  if (!stored) return { ok: false, reason: `there is no chain ${input.chainId}` };
  const identity = await ensureIdentitySourceClient(db, input.chainId, now, input.token);
  return {
    ok: true,
    setup: {
      created: stored.created,
      baseUrl: stored.row.baseUrl,
      identityClient: { id: identity.client.id, name: identity.client.name, created: identity.created },
      token: identity.token,
    },
  };
}

/**
 * Removes chain `chainId`'s authentication point (its shoppers log in with the platform's
 * passwords again); the identity-source client is left as it is.
 * @returns a refusal when the chain has none
 */
export async function clearChainAuthenticationPoint(db: CoreDb, chainId: number): Promise<{ ok: true } | Refusal> {
  return (await removeAuthenticationPoint(db, chainId)) ? { ok: true } : { ok: false, reason: `chain ${chainId} has no authentication point` };
}
