/**
 * The platform -> webshop step of a user write (add-user, alter-user, verify-phone-number;
 * authentication-points/webshop-sync.ts): the hook that enqueues the saved user for the chain's
 * webshop connector in the write's transaction, or nothing when the chain has no authentication
 * point or the change comes from the webshop itself (its identity-source client: no echo). The
 * user's deliveries share an ordering key, so they reach the webshop one at a time in the order
 * the writes committed (webshop-sync.ts `userOrderingKey`).
 */
import { findAuthenticationPoint } from "../authentication-points/authentication-point-repository.ts";
import { isIdentitySourceClient, webshopSyncHook } from "../authentication-points/webshop-sync.ts";
import type { RequestContext } from "../auth/request-context.ts";

/**
 * @param ctx the request (its caller, clock and secret box)
 * @param chainId the chain of the user written
 * @param options `fromAuthenticationPoint` when the handler already knows whether the webshop
 *   calls (add-user through an app); else it is read for a privileged caller. `password`: the
 *   password the change sets (sent sealed, so the webshop can check it)
 * @returns the `onSaved` hook (users/save-user.ts), or undefined: nothing to send. One statement
 *   (the authentication point), plus one for a privileged caller of a chain that has one
 */
export async function webshopSyncStep(
  ctx: RequestContext,
  chainId: number,
  options: { fromAuthenticationPoint?: boolean; password?: string | null } = {},
): Promise<ReturnType<typeof webshopSyncHook>> {
  // Read here, not with every request's chain (auth/session-grant.ts reads the chain's head only).
  const authenticationPoint = await findAuthenticationPoint(ctx.db, chainId);
  if (!authenticationPoint) return undefined;
  let fromAuthenticationPoint = options.fromAuthenticationPoint;
  if (fromAuthenticationPoint === undefined) {
    const caller = await ctx.auth.identity();
    fromAuthenticationPoint = caller.kind === "privileged" && (await isIdentitySourceClient(ctx.db, caller.serviceClientId));
  }
  return webshopSyncHook({ authenticationPoint, fromAuthenticationPoint, secretBox: ctx.secretBox, now: ctx.now, password: options.password ?? null });
}
