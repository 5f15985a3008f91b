/**
 * Shopper login through the webshop (handbook, "Sync between the webshop and the platform"):
 * `POST /auth/login` with the app hostname of a chain whose authentication point is a webshop.
 * The webshop holds the shoppers' credentials, so the platform's own password hashes are not
 * consulted:
 * 1. the connector's `authenticate` checks email and password (authentication-points/webshop-calls.ts);
 * 2. the member is found by `authentication_point_identifier` (the webshop customer id) or created
 *    from the connector's user info (authentication-points/webshop-member.ts, signup channel
 *    `platform`);
 * 3. a shopper session of the chain is opened.
 * A wrong password, an unknown email and a locked or inactive webshop account are refused alike
 * (no_valid_session, 6, HTTP 401, "Invalid username or password."), as is an inactive member. A
 * webshop that cannot be asked (down, too slow, refusing the integration token, answering outside
 * its contract) is service_unavailable (904, HTTP 503) with nothing created, and the attempt does
 * not count against the shopper's login limit; the connector's own per-address limit (429) is
 * too_many_login_attempts with its Retry-After.
 */
import { SecretBoxError } from "@service/shared/secret-box";
import { openAuthenticationPoint, type AuthenticationPointRow } from "../authentication-points/authentication-point-repository.ts";
import { webshopAuthenticate, webshopUserInfo, type WebshopCallOptions } from "../authentication-points/webshop-calls.ts";
import { webshopMember } from "../authentication-points/webshop-member.ts";
import { webshopSyncHook } from "../authentication-points/webshop-sync.ts";
import { findChain } from "../chains/chain-repository.ts";
import type { CoreDb } from "../db/client.ts";
import type { RequestContext } from "./request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { userVersionRules } from "../users/version-rules.ts";
import { BAD_CREDENTIALS, shopperAttempt, type LoginPath, type LoginVerdict } from "./login-path.ts";
import { createSession } from "./sessions.ts";

/** Seconds a shopper is told to wait (Retry-After) when the webshop cannot be asked. */
export const WEBSHOP_RETRY_AFTER_SECONDS = 5;

/**
 * The login path of a shopper of chain `chainId`, whose authentication point is `point`.
 * @param requestId sent to the connector as X-Request-Id
 */
export async function webshopLogin(
  ctx: RequestContext,
  login: { chainId: number; point: AuthenticationPointRow; username: string; password: string; requestId?: string },
): Promise<LoginPath> {
  const { db, deps, now, clientIp } = ctx;
  const { keys } = await shopperAttempt(db, login.chainId, login.username, clientIp);
  const options: WebshopCallOptions = {
    fetch: deps.fetch, timeoutMs: deps.config.webshopTimeoutMs, clientIp, requestId: login.requestId, logger: deps.logger,
  };
  const check = async (): Promise<LoginVerdict> => {
    try {
      const endpoint = await openAuthenticationPoint(await ctx.secretBox(), login.point);
      const answer = await webshopAuthenticate(endpoint, { email: login.username, password: login.password }, options);
      if (answer.outcome === "refused") return { ok: false, error: new ServiceError("no_valid_session", BAD_CREDENTIALS) };
      if (answer.outcome === "throttled") {
        const error = new ServiceError("too_many_login_attempts", "Too many failed login attempts at the webshop; try again later.");
        return { ok: false, error, counted: false, retryAfterSeconds: answer.retryAfterSeconds };
      }
      const chain = await liveChain(db, login.chainId);
      const onSaved = webshopSyncHook({ authenticationPoint: chain.authenticationPoint, fromAuthenticationPoint: false, secretBox: ctx.secretBox, now });
      const { user, written } = await webshopMember(db, {
        chain: chain.user,
        onSaved,
        customerId: answer.customerId,
        loadUserInfo: () => webshopUserInfo(endpoint, answer.customerId, options),
        rules: userVersionRules(ctx.version),
        now,
        logger: deps.logger,
      });
      if (written && onSaved) deps.outboxWake?.();
      if (!user.active) return { ok: false, error: new ServiceError("no_valid_session", BAD_CREDENTIALS) };
      return { ok: true, open: () => createSession(db, "end_user", user.id, now, deps.config.sessionTtlMs, login.chainId) };
    } catch (err) {
      if (err instanceof SecretBoxError) {
        deps.logger?.error({ chainId: login.chainId, err }, "webshop login: the authentication point's integration token does not open (was SERVICE_SECRET_KEY changed?)");
        return unavailable(new ServiceError("service_unavailable", "Login through the webshop is unavailable: the platform cannot read its webshop settings. Try again later."));
      }
      // Service errors here come after the webshop was asked (or could not be): not the shopper's failure.
      if (err instanceof ServiceError) return unavailable(err);
      throw err;
    }
  };
  return { keys, check };
}

function unavailable(error: ServiceError): LoginVerdict {
  return { ok: false, error, counted: false, ...(error.errorName === "service_unavailable" ? { retryAfterSeconds: WEBSHOP_RETRY_AFTER_SECONDS } : {}) };
}

async function liveChain(db: CoreDb, chainId: number) {
  const row = await findChain(db, chainId);
  if (!row) throw new ServiceError("no_valid_session", BAD_CREDENTIALS);
  return {
    user: { id: row.id, dummyEmailDomain: row.dummyEmailDomain, requireUniquePhoneNumber: row.requireUniquePhoneNumber },
    authenticationPoint: row.authenticationPoint,
  };
}
