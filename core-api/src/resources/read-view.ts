/**
 * What one caller may see of the resources in a response (spec, "Authentication": the
 * availability per resource; "Resource-specific behaviour": the properties omitted for end-users,
 * and a shopper's own vouchers only), at the top and at every nested level alike:
 * - a resource the caller may GET directly renders as that GET would, with the same omissions;
 * - one it may not GET renders as the bare reference `{"id": ...}`: what level 0 renders of any
 *   nested resource, and what the outer resource already says of it (a business's chain id).
 *   The reference is kept rather than the property left out, so a response keeps the shape its
 *   field table gives at every level, and the caller learns nothing it did not know;
 * - a shopper reads vouchers only as their own (OWNER_PROPERTY): another user's renders as `{id}`.
 * Who may GET what is the access table's (auth/access-table.ts readableResources); the
 * omissions are the declarations' `omitFor.end_user`. Views are interned: the renderers
 * (resources/render.ts) are generated per view, so a view is a handful of constants per process.
 */
import type { ResourceDeclaration } from "@service/shared/resources/meta";
import { CALLER_KINDS, readableResources, type ChainHolding } from "../auth/access-table.ts";
import { ACCESS_LEVELS } from "../db/permissions.ts";

/** How a caller reads one resource: all of them, only their own, or none (a bare reference). */
export type Reading = "all" | "own" | "none";

/** What one kind of caller sees; equal keys see alike. */
export interface ReadView {
  /** the cache key of the renderers generated for this view */
  readonly key: string;
  /** how the caller reads resource `name` when it is nested in another */
  reading(name: string): Reading;
  /** the properties of `decl` left out for this caller, or undefined for none */
  omitted(decl: ResourceDeclaration): ReadonlySet<string> | undefined;
}

/**
 * For resources a shopper may read only some of: the property naming the user a record belongs
 * to (spec, "Voucher with end-user authentication": own vouchers only; vouchers/visibility.ts).
 */
export const OWNER_PROPERTY: Readonly<Record<string, string>> = { voucher: "user" };

/** Everything, nothing omitted: a caller who may GET every resource (and renders outside a request). */
export const FULL_VIEW: ReadView = { key: "*", reading: () => "all", omitted: () => undefined };

/** Views by key: equal views are one object. */
const views = new Map<string, ReadView>();
/** Views by what a caller holds (holdingKey), so a request's view is one lookup, not the table's rows again. */
const byHolding = new Map<number, ReadView>();

/**
 * The view of a caller holding `holding` on the request's chain.
 * @param endUser whether the caller is a shopper (the declarations' end-user omissions apply)
 * @returns an interned view: the same object for every caller who may read the same resources
 */
export function readViewOf(holding: ChainHolding, endUser: boolean): ReadView {
  const held = holdingKey(holding, endUser);
  let view = byHolding.get(held);
  if (view) return view;
  const readable = readableResources(holding);
  const key = `${endUser ? "end_user" : "other"}:${readable.join(",")}`;
  view = views.get(key);
  if (!view) views.set(key, (view = makeView(key, new Set(readable), endUser)));
  byHolding.set(held, view);
  return view;
}

/** Everything the access table's verdict reads of `holding`, and `endUser`, as the bits of one number. */
function holdingKey(holding: ChainHolding, endUser: boolean): number {
  let key = (endUser ? 2 : 0) + (holding.addressAllowed ? 1 : 0);
  for (const kind of CALLER_KINDS) key = key * 2 + (holding.kinds.includes(kind) ? 1 : 0);
  key = key * 2 + (holding.levels ? 1 : 0);
  for (const level of ACCESS_LEVELS) key = key * 2 + (holding.levels?.[level] ? 1 : 0);
  return key;
}

function makeView(key: string, readable: ReadonlySet<string>, endUser: boolean): ReadView {
  const omissions = new WeakMap<ResourceDeclaration, ReadonlySet<string> | undefined>();
  return {
    key,
    reading: (name) => (!readable.has(name) ? "none" : endUser && OWNER_PROPERTY[name] !== undefined ? "own" : "all"),
    omitted(decl) {
      if (!endUser) return undefined;
      if (!omissions.has(decl)) omissions.set(decl, decl.omitFor?.end_user?.length ? new Set(decl.omitFor.end_user) : undefined);
      return omissions.get(decl);
    },
  };
}
