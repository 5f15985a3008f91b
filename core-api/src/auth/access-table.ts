/**
 * The access table (spec, "Authentication": the availability per resource, the admin access
 * levels, "Write operations ... on AccessToken, ServiceClient and AllowedIpRange, and PUT/PATCH on
 * Chain, require super-user admin access"; each internal call's "Auth:" line): for every Resources
 * operation and every internal call, which kinds of caller may attempt it and which admin access
 * level it needs. It is the only place these rules are written: the Resources engine
 * (resources/request-scope.ts), the internal calls (auth/context.ts requireCallAccess,
 * internal/campaign-access.ts) and the schema document (`security` per operation) all read it. Its `get`
 * rows also decide what a caller sees of a resource nested in another (readableResources,
 * resources/read-view.ts): no more than a GET of its own would show.
 *
 * Caller kinds (the columns of the spec's table):
 * - `admin`: an admin session; needs `level` on the chain, from an address the chain allows
 *   (auth/ip-allowlist.ts);
 * - `chain_scope`: a privileged token whose scope has `chain:{id}` for the chain; it holds every
 *   admin level but super_user (auth/privileged.ts), so a rule needing super_user never lists it;
 * - `read_businesses`: a privileged token with `read_businesses:{id}` (a chain scope includes it);
 * - `end_user`: a shopper, through an app of the chain; shoppers hold no levels.
 * An operation without a row is refused to everyone (544 on the Resources API).
 *
 * Pure data and pure functions; no database.
 */
import type { AccessLevel } from "../db/permissions.ts";

/** The kinds of caller the table distinguishes. */
export type CallerKind = "admin" | "chain_scope" | "read_businesses" | "end_user";
/** Every caller kind, once. */
export const CALLER_KINDS: readonly CallerKind[] = ["admin", "chain_scope", "read_businesses", "end_user"];

/** The operations of the Resources engine. */
export type EngineOperation = "get" | "list" | "create" | "update" | "delete";

/** Who may attempt one operation, and the admin access level it needs. */
export interface AccessRule {
  /** the caller kinds that may attempt it; any other kind is refused before anything is read */
  callers: readonly CallerKind[];
  /** the admin access level it needs (for `admin` and `chain_scope` callers) */
  level: AccessLevel;
  /** further levels it needs besides `level` (delete-campaign: the campaign permission) */
  alsoLevels?: readonly AccessLevel[];
}

/** Table row name of the campaign change log (GET /resources/campaign/{id}/change_log). */
export const CHANGE_LOG_RESOURCE = "campaign_change_log";

/** The rows of the Resources API: declaration names, plus the change log. */
export type ResourceName =
  | "business"
  | "voucher"
  | "content-page"
  | "allowed_ip_range"
  | "chain"
  | "access_token"
  | "service_client"
  | typeof CHANGE_LOG_RESOURCE
  | "member_number_range"
  | "webhook"
  | "event_delivery";

/** The internal calls whose access the table decides. */
export type CallName = "add-business" | "alter-business" | "get-businesses" | "add-campaign" | "alter-campaign" | "get-campaign"
  | "delete-campaign" | "add-campaign-group" | "get-campaign-groups" | "delete-campaign-group" | "add-tag" | "get-tags" | "delete-tag"
  | "add-user" | typeof ADD_ADMIN_USER | "get-user" | "alter-user" | "add-basket" | "verify-phone-number"
  | "get-basket-price" | "apply-referral-code" | "alter-chain";

/** The row of add-user when it creates an admin user (permission_* parameters). */
export const ADD_ADMIN_USER = "add-user (admin user)";

const ADMIN: readonly CallerKind[] = ["admin"];
const PRIVILEGED: readonly CallerKind[] = ["admin", "chain_scope"];
const BUSINESS_READERS: readonly CallerKind[] = ["admin", "chain_scope", "read_businesses"];
const EVERYONE: readonly CallerKind[] = ["admin", "chain_scope", "read_businesses", "end_user"];
const SHOPPER_READERS: readonly CallerKind[] = ["admin", "chain_scope", "end_user"];

const rule = (callers: readonly CallerKind[], level: AccessLevel): AccessRule => ({ callers, level });

/** Every operation of a resource any admin or chain-scope token may write (read, write, delete). */
const readWriteDelete = (readers: readonly CallerKind[]) => ({
  get: rule(readers, "read"),
  list: rule(readers, "read"),
  create: rule(PRIVILEGED, "write"),
  update: rule(PRIVILEGED, "write"),
  delete: rule(PRIVILEGED, "delete"),
});

/** A resource only a super-user admin may write (reads: `readers` with read). */
const superUserWrites = (readers: readonly CallerKind[]) => ({
  get: rule(readers, "read"),
  list: rule(readers, "read"),
  create: rule(ADMIN, "super_user"),
  update: rule(ADMIN, "super_user"),
  delete: rule(ADMIN, "super_user"),
});

/**
 * The Resources API rows, by resource and operation. Reading the spec's table across:
 * Business all / all with chain scope, GET also read_businesses / GET only; Voucher all / all /
 * GET only (own vouchers: vouchers/visibility.ts); Content page all / all / GET only;
 * AllowedIpRange yes / chain scope (reads: writes need a super-user admin) / no; Chain GET and
 * PUT/PATCH (super user) / GET / no; AccessToken and ServiceClient admins only, writes super user;
 * the change log admins with READ ("not stated as allowed" for the others: closed).
 */
export const RESOURCE_ACCESS: Readonly<Record<ResourceName, Readonly<Partial<Record<EngineOperation, AccessRule>>>>> = {
  business: readWriteDelete(EVERYONE),
  voucher: readWriteDelete(SHOPPER_READERS),
  "content-page": readWriteDelete(SHOPPER_READERS),
  allowed_ip_range: superUserWrites(PRIVILEGED),
  chain: { get: rule(PRIVILEGED, "read"), update: rule(ADMIN, "super_user") },
  access_token: superUserWrites(ADMIN),
  service_client: superUserWrites(ADMIN),
  [CHANGE_LOG_RESOURCE]: { get: rule(ADMIN, "read") },
  // handbook, "The user": member-number ranges are a super-user resource, reads included.
  member_number_range: { ...superUserWrites(ADMIN), get: rule(ADMIN, "super_user"), list: rule(ADMIN, "super_user") },
  // handbook, "Events": webhook configurations are managed by super users, reads included (secrets are write-only anyway).
  webhook: { ...superUserWrites(ADMIN), get: rule(ADMIN, "super_user"), list: rule(ADMIN, "super_user") },
  // handbook, "Events": the outbox's deliveries (failed ones kept after their last attempt), super users only.
  event_delivery: { ...superUserWrites(ADMIN), get: rule(ADMIN, "super_user"), list: rule(ADMIN, "super_user") },
};

/** An internal call's row: a Resources rule plus the error a refused caller gets. */
export interface CallRule extends AccessRule {
  /** the refusal when the caller's kind or level does not suffice (the campaign calls answer 246 first: internal/campaign-access.ts) */
  denied: "permission_denied_or_non_existent";
}

const call = (callers: readonly CallerKind[], level: AccessLevel): CallRule => ({ callers, level, denied: "permission_denied_or_non_existent" });

/**
 * The internal calls (spec: add-business and alter-business "admin with write access to the
 * chain", get-businesses "admin with read access", AccessToken scope `read_businesses` "reads of
 * the chain's businesses via ... the get-businesses call"; the campaign calls as add-business).
 * A chain-scope token counts as an admin of the chain ("equals admin access").
 */
export const CALL_ACCESS: Readonly<Record<CallName, CallRule>> = {
  "add-business": call(PRIVILEGED, "write"),
  "alter-business": call(PRIVILEGED, "write"),
  "get-businesses": call(BUSINESS_READERS, "read"),
  "add-campaign": call(PRIVILEGED, "write"),
  "alter-campaign": call(PRIVILEGED, "write"),
  "get-campaign": call(PRIVILEGED, "read"),
  // delete-campaign: "write access ... and the permission flag permissions_business_chain_campaign",
  // which is the admin level `campaign`; campaign_enable for an active campaign in a chain with
  // restrict_campaign_enable depends on the campaign, so internal/campaign-access.ts checks it.
  "delete-campaign": { ...call(PRIVILEGED, "write"), alsoLevels: ["campaign"] },
  "add-campaign-group": call(PRIVILEGED, "write"),
  "get-campaign-groups": call(PRIVILEGED, "read"),
  // "admin with DELETE access to the chain"; a chain-scope token equals admin access.
  "delete-campaign-group": call(PRIVILEGED, "delete"),
  // The tag calls: "user and privileged authentication not permitted" (delete-tag); add and get alike.
  "add-tag": call(ADMIN, "write"),
  "get-tags": call(ADMIN, "read"),
  "delete-tag": call(ADMIN, "delete"),
  // add-user: "admin with assign access to the entity of the user; privileged authentication also
  // permitted"; an admin user needs super_user instead. get-user / alter-user (handbook, "The
  // user"): admins with read / assign, chain-scope tokens, and a shopper for themselves (the
  // handler confines a shopper to their own profile). add-basket: as add-business.
  "add-user": call(PRIVILEGED, "assign"),
  [ADD_ADMIN_USER]: call(ADMIN, "super_user"),
  "get-user": call(SHOPPER_READERS, "read"),
  "alter-user": call(SHOPPER_READERS, "assign"),
  "add-basket": call(PRIVILEGED, "write"),
  // get-basket-price (handbook, "Baskets"): as add-basket, and a shopper pricing their own basket
  // (the handler confines a shopper to themselves); it writes nothing.
  "get-basket-price": call(SHOPPER_READERS, "write"),
  // apply-referral-code: admins with assign access (it changes the user), tokens, a shopper for themselves.
  "apply-referral-code": call(SHOPPER_READERS, "assign"),
  // alter-chain: "as PUT/PATCH on the Chain resource", super-user admins only (the handler applies the resource's rule).
  "alter-chain": call(ADMIN, "super_user"),
  // verify-phone-number (handbook, "Events"): "the shopper or an admin", as alter-user (it changes the user).
  "verify-phone-number": call(SHOPPER_READERS, "assign"),
};

/**
 * What the request's credentials claim to be, before they are checked (auth/credentials.ts);
 * `app_session`: session headers with X-Service-App-Hostname, an admin's or a shopper's session
 * (only the stored session tells).
 */
export type ClaimedKind = "admin" | "app_session" | "privileged" | "end_user";

/** The columns a claimed kind may turn out to hold: a token's scopes, and whose a session sent with an app is, are known only once verified. */
const COLUMNS_OF: Readonly<Record<ClaimedKind, readonly CallerKind[]>> = {
  admin: ["admin"],
  app_session: ["admin", "end_user"],
  privileged: ["chain_scope", "read_businesses"],
  end_user: ["end_user"],
};

/** The row of a Resources operation, or undefined when the operation is offered to nobody. */
export function resourceRule(resource: string, operation: EngineOperation): AccessRule | undefined {
  return (RESOURCE_ACCESS as Record<string, Partial<Record<EngineOperation, AccessRule>>>)[resource]?.[operation];
}

/**
 * Whether a caller claiming to be `claimed` could pass `rule` at all: checked before any
 * credential, header or parameter is read, so a refused kind learns nothing about the request.
 */
export function mayAttempt(rule: AccessRule | undefined, claimed: ClaimedKind): boolean {
  return rule !== undefined && COLUMNS_OF[claimed].some((kind) => rule.callers.includes(kind));
}

/**
 * Declarations no path serves, rendered only nested in another resource (the chain's
 * authentication point, which the chain renders under `authentication_point`): a caller reads
 * one exactly when it may GET the resource it is part of.
 */
export const PART_OF: Readonly<Record<string, ResourceName>> = { authentication_point: "chain" };

/**
 * The rule to read resource `name` as its own GET would: its `get` row, or for a part (PART_OF)
 * the `get` row of the resource it belongs to.
 * @returns undefined when nobody may read it (a name the table has no row for)
 */
export function readRuleOf(name: string): AccessRule | undefined {
  return resourceRule(PART_OF[name] ?? name, "get");
}

/** What a verified caller holds on one chain (auth/request-auth.ts builds it from one query). */
export interface ChainHolding {
  /** the caller kinds the credentials give on the chain; empty when they give nothing there */
  kinds: readonly CallerKind[];
  /** admin levels, or a chain-scope token's (all but super_user); null without any */
  levels: Readonly<Record<AccessLevel, boolean>> | null;
  /** for an admin: whether the chain's allowed IP ranges accept the request's address */
  addressAllowed: boolean;
}

/** The outcome of a rule for one caller: allowed, refused, or refused for the admin's address. */
export type Verdict = "allowed" | "denied" | "address_refused";

/**
 * Applies `rule` to what a caller holds on the chain. An admin needs the level first and then an
 * allowed address (the address is looked at only for someone who would otherwise get in); a
 * chain-scope token needs the level; read_businesses and end_user callers need nothing more.
 */
export function verdictOf(rule: AccessRule, holding: ChainHolding): Verdict {
  let verdict: Verdict = "denied";
  for (const kind of holding.kinds) {
    if (!rule.callers.includes(kind)) continue;
    if (kind === "admin" || kind === "chain_scope") {
      if (!holdsLevels(rule, holding.levels)) continue;
      if (kind === "admin" && !holding.addressAllowed) {
        verdict = "address_refused";
        continue;
      }
    }
    return "allowed";
  }
  return verdict;
}

/**
 * The resources a caller holding `holding` may GET directly (spec, "Authentication": the
 * availability per resource, and the rule's admin level): the ones it may also see nested in
 * another resource beyond their `{id}` (resources/read-view.ts).
 * @returns resource names (RESOURCE_ACCESS rows but the change log, and PART_OF's parts), sorted
 */
export function readableResources(holding: ChainHolding): string[] {
  return [...Object.keys(RESOURCE_ACCESS), ...Object.keys(PART_OF)]
    .filter((name) => name !== CHANGE_LOG_RESOURCE && verdictOf(readRuleOf(name)!, holding) === "allowed")
    .sort();
}

/** Whether `levels` hold the rule's level and every one of its `alsoLevels`. */
function holdsLevels(rule: AccessRule, levels: ChainHolding["levels"]): boolean {
  return levels !== null && [rule.level, ...(rule.alsoLevels ?? [])].every((level) => levels[level] === true);
}

// A chain-scope token never holds super_user: a row offering it a super-user operation would be a
// promise the check can never keep, so such a table refuses to load.
const EVERY_ROW: Array<[string, AccessRule]> = [
  ...Object.entries(RESOURCE_ACCESS).flatMap(([name, ops]) => Object.entries(ops).map(([op, r]): [string, AccessRule] => [`${name} ${op}`, r!])),
  ...Object.entries(CALL_ACCESS),
];
for (const [where, r] of EVERY_ROW) {
  if ((r.level === "super_user" || r.alsoLevels?.includes("super_user")) && r.callers.includes("chain_scope")) throw new Error(`access table: ${where} offers a super_user operation to chain_scope tokens`);
}
