/**
 * The member (platform user) of a webshop customer who logs in through the chain's apps (handbook,
 * "Sync between the webshop and the platform": shopper login through the webshop): found by
 * `authentication_point_identifier` (the webshop customer id), else created from the webshop's
 * user info through add-user's own write (users/save-user.ts: the same validation, member number,
 * referral code, existing-user rule), with signup channel `platform` (spec, "Signup channel":
 * "account created from an e-commerce platform customer gives `platform`").
 *
 * - A member of the chain with the customer's email as username but no identifier yet is linked
 *   (its identifier set, nothing else changed): the webshop, the chain's authentication point,
 *   has just vouched for that email. One linked to another customer is left alone and the login
 *   is refused with user_already_exists (400): two webshop customers cannot share a member.
 * - Concurrent first logins of one customer make one member: both writes meet at the unique index
 *   of the identifier (or of the username); the loser finds the winner's member.
 * - A member created or linked here is sent back to the webshop through the outbox (`onSaved`),
 *   so the customer learns its user_id and member_number (they always come from the platform).
 * - A field of the webshop's user info the platform refuses (a phone number that is no number, a
 *   postal code of another country's form, a phone number the chain already has while it requires
 *   unique ones) is left out of the new member and logged: the shopper still gets in.
 */
import type { UserInfoObject } from "@service/shared/connector";
import { addUserCall } from "@service/shared/internal/add-user";
import { and, eq, or } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { users } from "../db/schema.ts";
import type { Params, ParamValue } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";
import type { Logger } from "../logger.ts";
import { saveAddedUser, type UserChain } from "../users/save-user.ts";
import { completeUserChanges, readUserChanges, type UserChanges } from "../users/user-changes.ts";
import { resolveUserReferences } from "../users/user-references.ts";
import type { CoreTx } from "../users/member-numbers.ts";
import { findUser, type UserRow } from "../users/user-repository.ts";
import type { UserVersionRules } from "../users/version-rules.ts";
import { runTransaction } from "@service/shared/node";

/** Signup channel of a member created from a webshop customer. */
export const WEBSHOP_MEMBER_CHANNEL = "platform";

/** The user info keys taken over, by add-user parameter name (the same names). */
const TAKEN_OVER = [
  "first_name", "last_name", "birthday", "gender", "address_streetname", "address_housenumber", "address_housenumber_extension",
  "address_postalcode", "address_towncity", "country_code", "phone_number",
  "mailing_list_sub_offered", "mailing_list_subscribed", "printed_mailing_list_subscribed", "programme_opted_in",
] as const satisfies ReadonlyArray<keyof UserInfoObject>;

/** What finding or creating the member needs. */
export interface WebshopMemberRequest {
  chain: UserChain;
  /** the webshop customer id (authenticate's customer_id) */
  customerId: number;
  /** reads the customer's user info from the webshop; called only when no member is linked yet */
  loadUserInfo: () => Promise<UserInfoObject>;
  rules: UserVersionRules;
  now: Date;
  logger?: Pick<Logger, "warn">;
  /** runs in the transaction that creates or links the member (the outbox row telling the webshop its user_id and member_number) */
  onSaved?: (tx: CoreTx, user: UserRow) => Promise<void>;
}

/**
 * The member of webshop customer `customerId` (see the module comment).
 * @returns the member as stored, whether it was created now, and whether anything was written
 *   (created or linked: the outbox then holds a row for the webshop)
 * @throws ServiceError service_unavailable (904) from loadUserInfo (nothing is written);
 *   user_already_exists (400) when the customer's email is the username of a member linked to
 *   another webshop customer; parameter_invalid (419) when the chain's generated member-number
 *   ranges are used up
 */
export async function webshopMember(db: CoreDb, req: WebshopMemberRequest): Promise<{ user: UserRow; created: boolean; written: boolean }> {
  const identifier = String(req.customerId);
  const linked = await findUser(db, req.chain.id, { authenticationPointIdentifier: identifier });
  if (linked) return { user: linked, created: false, written: false };

  const info = await req.loadUserInfo();
  let params = paramsOf(info, identifier);
  for (let attempt = 1; ; attempt++) {
    const changes = readableChanges(params, req);
    try {
      const refs = await resolveUserReferences(db, req.chain.id, changes, null);
      const saved = await saveAddedUser(db, {
        chain: req.chain, changes, refs, rules: req.rules, now: req.now, updateIfExists: false, signupChannel: WEBSHOP_MEMBER_CHANNEL,
        ...(req.onSaved ? { onSaved: req.onSaved } : {}),
      });
      return { ...saved, written: true };
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      if (err.errorName === "user_already_exists" || err.errorName === "too_many_duplicate_objects") {
        return { ...(await linkByUsername(db, req, changes.username ?? null, identifier)), created: false };
      }
      if (err.errorName === "phone_number_already_exists" && attempt === 1) {
        params = without(params, "phone_number", err.message, req);
        continue;
      }
      throw err;
    }
  }
}

/** add-user parameters of the webshop's user info: the username, the identifier and every value it has. */
function paramsOf(info: UserInfoObject, identifier: string): Params {
  const params: Params = { username: info.username, authentication_point_identifier: identifier };
  for (const key of TAKEN_OVER) {
    const value = info[key] as ParamValue | undefined;
    if (value !== null && value !== undefined && value !== "") params[key] = value;
  }
  return params;
}

/**
 * The changes of `params` as add-user reads them, without the parameters add-user (or, for the
 * postal code and the phone number, the write) would refuse.
 */
function readableChanges(params: Params, req: WebshopMemberRequest): UserChanges {
  let kept = params;
  const read = (p: Params) => readUserChanges(addUserCall, p, req.rules, req.now);
  for (;;) {
    let changes: UserChanges;
    try {
      changes = read(kept);
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      // Which one: each parameter alone.
      const bad = Object.keys(kept).find((name) => refuses(() => read({ [name]: kept[name]! })));
      if (bad === undefined) throw err;
      kept = without(kept, bad, err.message, req);
      continue;
    }
    try {
      completeUserChanges(changes, null, req.rules);
      return changes;
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const field = err.errorName === "postalcode_invalid" ? "address_postalcode" : err.errorName === "invalid_phone_number" ? "phone_number" : null;
      if (field === null || kept[field] === undefined) throw err;
      kept = without(kept, field, err.message, req);
    }
  }
}

function refuses(read: () => unknown): boolean {
  try {
    read();
    return false;
  } catch (err) {
    if (err instanceof ServiceError) return true;
    throw err;
  }
}

function without(params: Params, name: string, reason: string, req: WebshopMemberRequest): Params {
  req.logger?.warn({ chainId: req.chain.id, customerId: req.customerId, field: name, reason }, "webshop login: a field of the webshop customer is left out of the new member");
  const { [name]: _dropped, ...rest } = params;
  return rest;
}

/**
 * The member the customer's write ran into: the one linked to `identifier` (a concurrent first
 * login made it), else the one with `username`, linked now when it has no identifier yet.
 * @throws ServiceError user_already_exists (400) when that member is linked to another customer
 */
async function linkByUsername(db: CoreDb, req: WebshopMemberRequest, username: string | null, identifier: string): Promise<{ user: UserRow; written: boolean }> {
  const chainId = req.chain.id;
  return runTransaction(db, async (tx) => {
    const match = username
      ? or(eq(users.authenticationPointIdentifier, identifier), eq(users.username, username))
      : eq(users.authenticationPointIdentifier, identifier);
    const rows = await tx.select().from(users).where(and(eq(users.chainId, chainId), match)).orderBy(users.id).for("update");
    const linked = rows.find((r) => r.authenticationPointIdentifier === identifier);
    if (linked) return { user: linked, written: false };
    const named = rows.find((r) => r.authenticationPointIdentifier === null);
    if (!named) {
      throw new ServiceError("user_already_exists", "A member of the chain with this username is linked to another webshop customer.");
    }
    await tx.update(users).set({ authenticationPointIdentifier: identifier, lastModifiedDate: req.now }).where(eq(users.id, named.id));
    const user = (await findUser(tx, chainId, { id: named.id }))!;
    await req.onSaved?.(tx, user);
    return { user, written: true };
  });
}
