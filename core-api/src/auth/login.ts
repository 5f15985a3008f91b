/**
 * `POST /auth/login` and `DELETE /auth/logout` (handbook, "admin login").
 *
 * Login takes `username` and `password` (form or JSON) and returns
 * `results.session_info {session_user_id, session_key, expiry}`:
 * - without `X-Service-App-Hostname`: an admin (admin_users) session; refused when none of the
 *   admin's chains accepts the client address (auth/ip-allowlist.ts), with the very answer a
 *   wrong password gets, so that from outside the ranges the answer says nothing about the
 *   password (a 403 for the right password made login a password oracle there);
 * - with `X-Service-App-Hostname`: a session for a shopper (users) of that app's chain, usable only
 *   through an app of that chain. When the chain's authentication point is a webshop, the webshop
 *   checks the credentials and the member is found or created from it (auth/webshop-login.ts).
 * Every attempt goes through the brute-force throttle (auth/throttle.ts); an attempt that does not
 * end in a session counts as a failure, whatever the reason. A successful login also deletes a
 * batch of expired sessions (auth/sessions.ts).
 */
import { okBody } from "@service/shared";
import { loginCall, type LoginResults, type LogoutResults } from "@service/shared/internal/login";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { findAuthenticationPoint } from "../authentication-points/authentication-point-repository.ts";
import { adminUsers } from "../db/schema.ts";
import { formatDateTime } from "../http/api-version.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv, RequestContext } from "./request-context.ts";
import { requestHeader } from "../http/request-headers.ts";
import { ServiceError } from "../http/service-error.ts";
import { findAppChain, readAppHostname, UNKNOWN_APP } from "./apps.ts";
import { adminLoginAllowed } from "./ip-allowlist.ts";
import { BAD_CREDENTIALS, foldUsername, shopperAttempt, type LoginPath, type LoginVerdict } from "./login-path.ts";
import { hashPassword, verifyPassword } from "../crypto/passwords.ts";
import { createSession, deleteExpiredSessions, deleteSession } from "./sessions.ts";
import { beginLoginAttempt, loginAbandoned, loginFailed, loginSucceeded, type ThrottleKeys } from "./throttle.ts";
import { webshopLogin } from "./webshop-login.ts";

// Verified against when the username is unknown, so a miss costs as much as a wrong password.
let dummyHash: Promise<string> | undefined;
// One answer for every refused admin login: a wrong password, an unknown username and the right
// password from an address outside the allowed IP ranges cannot be told apart, while an admin
// who knows the password still learns why.
const ADMIN_REFUSED = "Invalid username or password, or login from this address is not allowed.";

/**
 * Logs an admin or, with `X-Service-App-Hostname`, a shopper in.
 * Parameters: `loginCall` (`@service/shared/internal/login`).
 * @throws ServiceError parameter_missing (441) without username or password; 419 / 482 for a
 *   username or password that is not text or a username over 255 characters;
 *   no_valid_session (6, 401) for an unknown user, a wrong password, an inactive account, an
 *   unknown app hostname, or an admin whose chains all refuse the client address (one body for
 *   all admin refusals); too_many_login_attempts (429, with Retry-After) while the account at
 *   the client address or the address is locked after repeated failures, or the account is paced
 *   after failures from many addresses and the client address is not one it logged in from lately. Through a chain whose authentication point is
 *   a webshop: no_valid_session also for a locked or inactive webshop account (the same body as a
 *   wrong password); service_unavailable (904, 503, with Retry-After) when the webshop cannot be
 *   asked; user_already_exists (400) when the customer's email belongs to a member linked to
 *   another webshop customer. No session is created on any refusal.
 */
export async function login(c: Context<AppEnv>): Promise<Response> {
  const ctx = c.var.ctx;
  // Credentials sent along are checked before anything is written, as on every other path.
  await ctx.auth.identity();
  const params = await allParams(c);
  const { username, password } = readCallParams(loginCall, params);

  const hostname = readAppHostname(c);
  const { keys, check } = hostname === undefined
    ? await adminLogin(ctx, username, password)
    : await shopperLogin(ctx, hostname, username, password, c.get("requestId"));

  const { db, now } = ctx;
  const begun = await beginLoginAttempt(db, keys, now);
  if (begun.refused) {
    const seconds = Math.ceil(begun.retryAfterMs / 1000);
    c.header("Retry-After", String(seconds));
    const wait = seconds < 60 ? `${seconds} second(s)` : `${Math.ceil(seconds / 60)} minute(s)`;
    throw new ServiceError("too_many_login_attempts", `Too many failed login attempts; try again in ${wait}.`);
  }
  const verdict = await check();
  if (!verdict.ok) {
    if (verdict.counted === false) {
      await loginAbandoned(db, begun.attempt, now);
    } else {
      const delayMs = await loginFailed(db, begun.attempt, now);
      if (delayMs > 0) await (ctx.deps.sleep ?? sleep)(delayMs);
    }
    if (verdict.retryAfterSeconds !== undefined) c.header("Retry-After", String(verdict.retryAfterSeconds));
    throw verdict.error;
  }
  const session = await verdict.open();
  // A shopper's address becomes known to the member the login ended on (a webshop login may have just created it).
  await loginSucceeded(db, begun.attempt, now, hostname === undefined ? undefined : `user:${session.session_user_id}`);
  await deleteExpiredSessions(db, now);
  const results: LoginResults = {
    session_info: {
      session_user_id: session.session_user_id,
      session_key: session.session_key,
      expiry: formatDateTime(session.expiry, ctx.version)!,
    },
    result_type: "login",
  };
  return c.json(okBody(results));
}

/**
 * Ends the caller's session (`X-Service-Session-Key`), admin or shopper.
 * @throws ServiceError no_valid_session (6, 401) when no live session is named (a shopper access
 *   token has no session to end: the app discards it)
 */
export async function logout(c: Context<AppEnv>): Promise<Response> {
  const { db } = c.var.ctx;
  const key = requestHeader(c, "x-service-session-key");
  const auth = await c.var.ctx.auth.identity();
  const hasSession = (auth.kind === "admin" || auth.kind === "end_user") && auth.sessionId !== null;
  if (!hasSession || !key || !(await deleteSession(db, key.trim()))) throw new ServiceError("no_valid_session");
  const results: LogoutResults = { result_type: "logout" };
  return c.json(okBody(results));
}

/** The account of an admin login and the checks it must pass. */
async function adminLogin(ctx: RequestContext, username: string, password: string): Promise<LoginPath> {
  const { db, deps, now, clientIp } = ctx;
  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.username, username)).limit(1);
  // Known accounts are counted by id, so spellings the collation equates (case, ß/ss) share a counter.
  const keys: ThrottleKeys = { account: user ? `admin:${user.id}` : `admin-name:${foldUsername(username)}`, address: clientIp };
  const check = async (): Promise<LoginVerdict> => {
    const ok = await verifyPassword(password, user?.passwordHash ?? (await (dummyHash ??= hashPassword("dummy password"))));
    // Looked up whatever the password, so a right and a wrong one cost the same work.
    const addressAllowed = user ? await adminLoginAllowed(db, user.id, clientIp) : false;
    if (!user || !ok || !user.active || !addressAllowed) return { ok: false, error: new ServiceError("no_valid_session", ADMIN_REFUSED) };
    return { ok: true, open: () => createSession(db, "admin", user.id, now, deps.config.sessionTtlMs) };
  };
  return { keys, check };
}

/**
 * The account of a shopper login through app `hostname` and the checks it must pass: the
 * webshop's when the app's chain has one as its authentication point, else the platform's password.
 */
async function shopperLogin(ctx: RequestContext, hostname: string, username: string, password: string, requestId?: string): Promise<LoginPath> {
  const { db, deps, now, clientIp } = ctx;
  const app = await findAppChain(db, hostname);
  if (!app) {
    const error = new ServiceError("no_valid_session", UNKNOWN_APP);
    return { keys: { account: null, address: clientIp }, check: async (): Promise<LoginVerdict> => ({ ok: false, error }) };
  }
  const point = await findAuthenticationPoint(db, app.chainId);
  if (point) return webshopLogin(ctx, { chainId: app.chainId, point, username, password, requestId });
  const { user, keys } = await shopperAttempt(db, app.chainId, username, clientIp);
  const check = async (): Promise<LoginVerdict> => {
    const ok = await verifyPassword(password, user?.passwordHash ?? (await (dummyHash ??= hashPassword("dummy password"))));
    if (!user || !user.passwordHash || !ok || !user.active) return { ok: false, error: new ServiceError("no_valid_session", BAD_CREDENTIALS) };
    return { ok: true, open: () => createSession(db, "end_user", user.id, now, deps.config.sessionTtlMs, app.chainId) };
  };
  return { keys, check };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
