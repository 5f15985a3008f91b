/**
 * Who a verified caller is, and what it holds on one chain: the outcome of the one
 * authentication query of a request (auth/request-auth.ts). Types only.
 */
import type { ChainHead } from "../chains/chain-columns.ts";
import type { ChainHolding } from "./access-table.ts";
import type { ScopeField } from "../clients/token-scopes.ts";

/** The authentication context of a verified privileged request. */
export interface PrivilegedAuth {
  kind: "privileged";
  /** the access token's UUID (lower case) */
  tokenId: string;
  serviceClientId: number;
  /** the chain the token was issued in (its scopes may name other chains) */
  chainId: number;
  scopes: ScopeField[];
}

/** A verified caller. */
export type AuthContext =
  | { kind: "anonymous" }
  /** clientIp: the request's canonical client address, for the chains' allowed IP ranges; null or absent: unknown */
  | { kind: "admin"; userId: number; sessionId: number; clientIp?: string | null }
  /** a shopper (users.id) of chain `chainId`; sessionId null when authenticated by an access token */
  | { kind: "end_user"; userId: number; chainId: number; sessionId: number | null }
  /** a service client's access token; what it may do is decided per chain by its scopes */
  | PrivilegedAuth;

/** A caller with credentials, verified. */
export type VerifiedCaller = Exclude<AuthContext, { kind: "anonymous" }>;

/** A verified caller with what it holds on one chain (see ChainHolding for the rules' inputs). */
export interface ChainGrant extends ChainHolding {
  auth: VerifiedCaller;
  /**
   * the chain asked for, when it exists and is not deleted (for a shopper: only the app's own
   * chain); null otherwise, and then `kinds` is empty: nothing is granted on a missing chain
   */
  chain: ChainHead | null;
}
