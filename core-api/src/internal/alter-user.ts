/**
 * `PUT /internal/alter-user` (handbook, "The user": alter-user): changes the fields given of one
 * user, with add-user's validation (contract: `@service/shared/internal/alter-user`). Response
 * `results`: `{user, result_type: "alter-user"}`. signup_channel never changes.
 *
 * Who: admins with assign access to the user's chain and chain-scope tokens name the user as
 * get-user does: by user_id, or else by exactly one of username, member_number,
 * authentication_point_identifier with chain_id (older clients send username); with user_id given
 * those keys are changes. A shopper alters their own profile (user_id optional), but not
 * member_number, authentication_point_identifier or is_employee (those are the chain's to set).
 *
 * Checks, in order (nothing is written unless all pass): credentials (6 / 266); user_id an integer
 * (419), chain_id an integer (76); for admins and tokens without user_id: no naming key 441
 * parameter_missing, several 419, no chain_id 3 http_vars_missing; the user: one that does not exist,
 * one of a chain the caller cannot assign on, and for a shopper anyone but themselves all answer
 * 68 permission_denied_or_non_existent alike; a shopper sending a staff-only field 68; every user
 * parameter (316, 419, 420, 482), gender by version, birthday; stores, referral code, member
 * number range (419); in the write 278, 547, 555, and user_already_exists (400) for a username,
 * member number or authentication point identifier of another user.
 * On a chain with an authentication point the altered user is sent to the webshop through the
 * outbox, in the same transaction, unless the webshop (the chain's identity-source client) made
 * the call (authentication-points/webshop-sync.ts).
 * On a chain with `verify_phone_numbers` a valid phone_number given also sends a verification code
 * by SMS, within the chain's limits (users/phone-verification-limits.ts); a code the limits hold
 * back never fails the call: the number is stored all the same, phone_number_status 2 (pending),
 * and verify-phone-number tells the wait (920).
 */
import { okBody } from "@service/shared";
import { alterUserCall, type AlterUserResults } from "@service/shared/internal/alter-user";
import { STAFF_ONLY_USER_FIELDS } from "@service/shared/internal/user-params";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { requireAccess, requireSession } from "../auth/context.ts";
import { userNamedBy } from "./user-acted-on.ts";
import { webshopSyncStep } from "./webshop-sync-step.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { allOnSaved, saveAlteredUser } from "../users/save-user.ts";
import { readUserChanges } from "../users/user-changes.ts";
import { userInfoOf } from "../users/user-info-record.ts";
import { resolveUserReferences } from "../users/user-references.ts";
import { userVersionRules } from "../users/version-rules.ts";
import { phoneVerificationStep } from "./phone-verification-hook.ts";

const DENIED = "permission_denied_or_non_existent";

/** Handles alter-user; see the module comment. */
export async function alterUser(c: Context<AppEnv>): Promise<Response> {
  const ctx = c.var.ctx;
  const { db, auth, now, version } = ctx;
  requireSession(auth);
  const params = await allParams(c);
  const naming = readCallParams(alterUserCall, params, ["user_id", "chain_id", "username", "member_number", "authentication_point_identifier"]);
  const row = CALL_ACCESS["alter-user"];

  const { userId, chainId, byShopper, namedBy } = await userNamedBy(auth, db, naming);
  if (namedBy) delete params[namedBy]; // the key that named the user is no change
  if (byShopper) {
    const staffOnly = STAFF_ONLY_USER_FIELDS.filter((name) => params[name] !== undefined);
    if (staffOnly.length > 0) throw new ServiceError(DENIED, `A shopper cannot change ${staffOnly.join(", ")}.`);
  }
  const { chain } = await requireAccess(auth, row, chainId, DENIED);

  const rules = userVersionRules(version);
  const changes = readUserChanges(alterUserCall, params, rules, now);
  const refs = await resolveUserReferences(db, chainId, changes, userId);
  const phone = await phoneVerificationStep(ctx, chain, changes);
  const webshopSync = await webshopSyncStep(ctx, chainId, { password: changes.password });
  const user = await saveAlteredUser(db, {
    chain: { id: chainId, dummyEmailDomain: chain.dummyEmailDomain, requireUniquePhoneNumber: chain.requireUniquePhoneNumber },
    changes,
    refs,
    rules,
    now,
    userId,
    onSaved: allOnSaved(phone.onSaved, webshopSync),
  });
  // Deleted between the look-up and the write: answered as any user that does not exist.
  if (!user) throw new ServiceError(DENIED);
  await phone.afterCommit();
  if (webshopSync) c.var.ctx.deps.outboxWake?.();
  const results: AlterUserResults = { user: userInfoOf(user, version), result_type: "alter-user" };
  return c.json(okBody(results));
}
