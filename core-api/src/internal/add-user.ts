/**
 * `POST /internal/add-user` (spec, "Internal call: add-user"; handbook, "The user"): creates a
 * shopper of a chain, updates one with update_if_exists, or with permission_* parameters creates
 * an admin user. Request: multipart/form-data, x-www-form-urlencoded or JSON (contract and every
 * parameter: `@service/shared/internal/add-user`). Response `results`: `{user, user_type,
 * updated_existing_user, referring_user, result_type: "add-user"}` (+ `permissions` for an admin).
 *
 * Checks, in order (nothing is written unless all pass):
 * - credentials at all, else 6 no_valid_session;
 * - an admin session sent with X-Service-App-Hostname: 419 parameter_invalid (handbook: the header
 *   is forbidden with an admin session; the session decides, not the header combination);
 * - chain_id an integer, else 76; X-Service-Request a JSON object, else 419;
 * - admins: chain_id present, else 3 http_vars_missing (a shopper's session without it: 68, as
 *   with it below); privileged tokens: chain_id (when given)
 *   with access, then X-Service-App-Hostname present and naming an app of the token's chain
 *   (and of chain_id), else 419;
 * - the access table's row: assign access (admin or chain-scope token), or for an admin user
 *   super_user (admins only), else 68 permission_denied_or_non_existent;
 * - if_unmodified_since a datetime, and only with update_if_exists true and not for an admin user,
 *   else 419 parameter_invalid;
 * - every user parameter (their declared errors: 316, 419, 420, 482), gender by version, birthday;
 * - stores, referral code (419);
 * - in the write: member number range (419: checked with the users the write finds, so a number
 *   the user updated holds reads no range), too_many_duplicate_objects (409), user_already_exists
 *   (400), 278, 547, 555.
 * With if_unmodified_since an existing user modified after that moment is left as it is: the
 * answer is that user with `precondition_failed` true (users/save-user.ts: check and write in one
 * statement, or under the row's lock, in one transaction), and nothing is written or sent to the webshop.
 * A shopper saved on a chain with an authentication point is sent to the webshop through the
 * outbox, in the same transaction, unless the chain's identity-source client (the webshop) made
 * the call (authentication-points/webshop-sync.ts).
 * On a chain with `verify_phone_numbers` a valid phone_number given also sends a verification code
 * by SMS, within the chain's limits (users/phone-verification-limits.ts); a code the limits hold
 * back never fails the call: the number is stored all the same, phone_number_status 2 (pending),
 * and verify-phone-number tells the wait (920).
 */
import { okBody } from "@service/shared";
import { parseDateTime } from "@service/shared/text-values";
import { addUserCall, PERMISSION_PARAMS, type AddUserResults, type PermissionParam } from "@service/shared/internal/add-user";
import type { Context } from "hono";
import { ADD_ADMIN_USER, CALL_ACCESS } from "../auth/access-table.ts";
import { readAppHostname } from "../auth/apps.ts";
import { requireAccess, requireSession } from "../auth/context.ts";
import { hashPassword } from "../crypto/passwords.ts";
import type { AccessLevels } from "../db/permissions.ts";
import { webshopSyncStep } from "./webshop-sync-step.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams, type Params } from "../http/params.ts";
import type { AppEnv, RequestContext } from "../auth/request-context.ts";
import { requestHeader } from "../http/request-headers.ts";
import { ServiceError } from "../http/service-error.ts";
import { adminUserInfoOf, saveAdminUser } from "../users/admin-user.ts";
import { allOnSaved, saveAddedUser } from "../users/save-user.ts";
import { findSignupApp } from "../users/signup-app.ts";
import { clientChannelOf, signupChannelOf, type SignupSource } from "../users/signup-channel.ts";
import { readUserChanges } from "../users/user-changes.ts";
import { userInfoOf } from "../users/user-info-record.ts";
import { resolveUserReferences } from "../users/user-references.ts";
import { userVersionRules } from "../users/version-rules.ts";
import { phoneVerificationStep } from "./phone-verification-hook.ts";

const PERMISSION_NAMES = Object.keys(PERMISSION_PARAMS) as PermissionParam[];

/** Handles add-user; see the module comment for the order of checks and the errors. */
export async function addUser(c: Context<AppEnv>): Promise<Response> {
  const ctx = c.var.ctx;
  const { db, auth, now, version } = ctx;
  requireSession(auth);
  const tokenHostname = auth.acceptAppHostname();
  if (auth.kind !== "privileged" && readAppHostname(c) !== undefined && (await isAdminSession(ctx))) {
    throw new ServiceError("parameter_invalid", "X-Service-App-Hostname is not accepted with an admin session on add-user.");
  }
  const params = await allParams(c);
  const { chain_id: chainParam } = readCallParams(addUserCall, params, ["chain_id"]);
  const clientChannel = clientChannelOf(requestHeader(c, "x-service-request"));
  const forAdmin = PERMISSION_NAMES.some((name) => params[name] !== undefined);
  const row = forAdmin ? CALL_ACCESS[ADD_ADMIN_USER] : CALL_ACCESS["add-user"];

  const { chainId, source } = auth.kind === "privileged"
    ? await throughApp(ctx, chainParam, tokenHostname, row)
    : { chainId: await requireChainParam(ctx, chainParam), source: { by: "admin" } as SignupSource };
  const { chain } = await requireAccess(auth, row, chainId, "permission_denied_or_non_existent");

  const { update_if_exists: updateIfExists, if_unmodified_since: sinceText } = readCallParams(addUserCall, params, ["update_if_exists", "if_unmodified_since"]);
  const unmodifiedSince = sinceText === undefined ? undefined : parseDateTime(sinceText)!;
  if (unmodifiedSince !== undefined && forAdmin) throw new ServiceError("parameter_invalid", "if_unmodified_since is not accepted for an admin user (permission_* parameters).");
  if (unmodifiedSince !== undefined && !updateIfExists) throw new ServiceError("parameter_invalid", "if_unmodified_since needs update_if_exists true.");
  const rules = userVersionRules(version);
  const changes = readUserChanges(addUserCall, params, rules, now);
  if (forAdmin) return c.json(okBody(await addAdminUser(ctx, params, chainId, updateIfExists, changes)));

  const refs = await resolveUserReferences(db, chainId, changes, null, { memberNumberInWrite: true });
  const phone = await phoneVerificationStep(ctx, chain, changes);
  const webshopSync = await webshopSyncStep(ctx, chainId, { fromAuthenticationPoint: source.by === "identity_source", password: changes.password });
  const { user, created, preconditionFailed } = await saveAddedUser(db, {
    chain: { id: chainId, dummyEmailDomain: chain.dummyEmailDomain, requireUniquePhoneNumber: chain.requireUniquePhoneNumber },
    changes,
    refs,
    rules,
    now,
    onSaved: allOnSaved(phone.onSaved, webshopSync),
    updateIfExists,
    signupChannel: signupChannelOf(clientChannel, source),
    unmodifiedSince,
  });
  await phone.afterCommit();
  if (webshopSync && !preconditionFailed) ctx.deps.outboxWake?.();
  const referrer = refs.referrer ?? null;
  const results: AddUserResults = {
    user: userInfoOf(user, version),
    user_type: created ? "new" : "registered",
    updated_existing_user: !created && !preconditionFailed,
    referring_user: referrer && !preconditionFailed ? { id: referrer.id, first_name: referrer.firstName, last_name: referrer.lastName } : null,
    ...(unmodifiedSince !== undefined ? { precondition_failed: preconditionFailed } : {}),
    result_type: "add-user",
  };
  return c.json(okBody(results));
}

/**
 * chain_id, required with an admin session. Without it a shopper's session hears what is really
 * wrong, as with it: a shopper may not add users at all.
 * @throws ServiceError http_vars_missing (3) for an admin without chain_id;
 *   permission_denied_or_non_existent (68) for a shopper's session
 */
async function requireChainParam(ctx: RequestContext, chainId: number | undefined): Promise<number> {
  if (chainId !== undefined) return chainId;
  if (!(await isAdminSession(ctx))) {
    throw new ServiceError("permission_denied_or_non_existent", "add-user needs an admin session or a privileged token; a shopper's session may not add users.");
  }
  throw new ServiceError("http_vars_missing", "chain_id is required with an admin session.");
}

/**
 * A privileged token's chain and signup source: chain_id (when given) must be a chain the token
 * may use; X-Service-App-Hostname must name an app of the token's chain (and of chain_id).
 * @throws ServiceError 6 / 266 for credentials that do not pass; 68 without access to chain_id;
 *   419 without the header, or for an app of another chain
 */
async function throughApp(
  ctx: RequestContext,
  chainParam: number | undefined,
  hostname: string | undefined,
  row: (typeof CALL_ACCESS)["add-user"],
): Promise<{ chainId: number; source: SignupSource }> {
  const caller = await ctx.auth.identity();
  if (caller.kind !== "privileged") throw new Error("add-user: a privileged token verified as another kind");
  if (chainParam !== undefined) await requireAccess(ctx.auth, row, chainParam, "permission_denied_or_non_existent");
  if (hostname === undefined) throw new ServiceError("parameter_invalid", "X-Service-App-Hostname is required with a privileged access token on add-user.");
  const app = await findSignupApp(ctx.db, hostname, caller.serviceClientId);
  if (!app || app.chainId !== caller.chainId || (chainParam !== undefined && chainParam !== app.chainId)) {
    throw new ServiceError("parameter_invalid", "X-Service-App-Hostname names no app of the access token's chain.");
  }
  const source: SignupSource = app.clientIsIdentitySource ? { by: "identity_source" } : { by: "app", kind: app.kind };
  return { chainId: app.chainId, source };
}

/**
 * Whether the request's session headers name a live admin session (not a shopper's): the stored
 * session decides, as on every call.
 * @throws ServiceError no_valid_session (6) for a session that does not pass at all
 */
async function isAdminSession(ctx: RequestContext): Promise<boolean> {
  return (await ctx.auth.identity()).kind === "admin";
}

/** add-user with permission_* parameters: the admin user (users/admin-user.ts). */
async function addAdminUser(
  ctx: RequestContext,
  params: Params,
  chainId: number,
  updateIfExists: boolean,
  changes: ReturnType<typeof readUserChanges>,
): Promise<AddUserResults> {
  const given = readCallParams(addUserCall, params, PERMISSION_NAMES) as Partial<Record<PermissionParam, boolean>>;
  const levels: Partial<AccessLevels> = {};
  for (const name of PERMISSION_NAMES) if (given[name] !== undefined) levels[PERMISSION_PARAMS[name]] = given[name];
  const saved = await saveAdminUser(ctx.db, {
    chainId,
    username: changes.username,
    passwordHash: changes.password ? await hashPassword(changes.password) : null,
    firstName: changes.columns.firstName,
    lastName: changes.columns.lastName,
    levels,
    updateIfExists,
  }, ctx.now);
  return {
    user: adminUserInfoOf(saved.admin, chainId, ctx.version),
    user_type: saved.created ? "new" : "registered",
    updated_existing_user: !saved.created,
    referring_user: null,
    permissions: saved.levels,
    result_type: "add-user",
  };
}
