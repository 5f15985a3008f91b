/**
 * The nesting matrix: every resource x every nested reference x every kind of caller x response
 * levels 0-4, through the app on a real database. The rule, written here from the spec and not
 * imported from the code:
 * - a nested resource the caller may GET directly (MAY_GET, spec "Authentication": availability
 *   per resource; a shopper only their own vouchers) renders as that GET does, one level down,
 *   with the caller's field rules (SHOPPER_OMITS, spec "Resource-specific behaviour");
 * - any other nested resource, and every one at level 0, renders as the bare reference `{id}`.
 * Each nested object is checked by the rule itself, all the way down, and also compared with the
 * caller's own GET of it one level down, whose status must agree with MAY_GET.
 */
import { RESOURCES } from "@service/shared/resources/resource-registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CALLERS, startNestingWorld, type Caller, type NestingWorld } from "./nested-access.test-support.ts";

const LEVELS = [0, 1, 2, 3, 4];
const EVERYTHING = ["business", "voucher", "content-page", "allowed_ip_range", "chain", "access_token", "service_client", "member_number_range", "webhook", "event_delivery"];

/**
 * Which resources each caller may GET (spec, "Authentication"; the three resources the spec does
 * not list are super-user resources, reads included, by the handbook). The chain's authentication
 * point has no path: it is part of the chain, read by whoever may GET the chain.
 */
const MAY_GET: Record<Caller, string[]> = {
  super_admin: EVERYTHING,
  limited_admin: ["business", "voucher", "content-page", "allowed_ip_range", "chain", "access_token", "service_client"],
  chain_scope: ["business", "voucher", "content-page", "allowed_ip_range", "chain"],
  read_businesses: ["business"],
  shopper: ["business", "voucher", "content-page"],
};

/** Properties omitted for end-users (spec, "Resource-specific behaviour"); every other caller sees them. */
const SHOPPER_OMITS: Record<string, string[]> = {
  business: ["chain_member", "created_date", "deleted", "deleted_by", "last_modified_date", "last_updated_by"],
  voucher: ["creating_user", "db_redeemed_date", "deleted", "user"],
  "content-page": ["deleted"],
};

/** Every nested reference to a declared resource (spec field tables), with the level from which the property shows. */
const NESTINGS: Array<{ from: string; prop: string; to: string; level: number }> = [
  { from: "business", prop: "chain", to: "chain", level: 1 },
  { from: "voucher", prop: "parent_voucher", to: "voucher", level: 2 },
  { from: "voucher", prop: "redemption_exclusive_business", to: "business", level: 2 },
  { from: "access_token", prop: "service_client", to: "service_client", level: 2 },
  { from: "service_client", prop: "chain", to: "chain", level: 2 },
  { from: "service_client", prop: "access_tokens", to: "access_token", level: 3 },
  { from: "allowed_ip_range", prop: "chain", to: "chain", level: 1 },
  { from: "chain", prop: "allowed_ip_ranges", to: "allowed_ip_range", level: 3 },
  { from: "chain", prop: "authentication_point", to: "authentication_point", level: 2 },
  { from: "authentication_point", prop: "service_client", to: "service_client", level: 1 },
  { from: "member_number_range", prop: "chain", to: "chain", level: 1 },
  { from: "webhook", prop: "chain", to: "chain", level: 1 },
  { from: "event_delivery", prop: "chain", to: "chain", level: 1 },
];

let w: NestingWorld;
beforeAll(async () => {
  w = await startNestingWorld();
}, 60_000);
afterAll(() => w.core.close());

/** Whether `caller` may read record `id` of resource `name` directly, by the rule above. */
function mayRead(caller: Caller, name: string, id: unknown): boolean {
  if (name === "authentication_point") return MAY_GET[caller].includes("chain");
  if (!MAY_GET[caller].includes(name)) return false;
  return !(caller === "shopper" && name === "voucher" && w.voucherOwner.get(id as number) !== w.shopperId);
}

const pathOf = (name: string, id: unknown) => (name === "chain" ? "/resources/chain" : `${RESOURCES.get(name)!.path}/${id}`);

const direct = new Map<string, Promise<{ status: number; body: any }>>();
/** `caller`'s GET of `path` at `level` (each asked once). */
function get(caller: Caller, path: string, level: number): Promise<{ status: number; body: any }> {
  const key = `${caller} ${path} ${level}`;
  if (!direct.has(key)) direct.set(key, w.core.json(path, { headers: { ...w.headers[caller], "X-Service-Response-Recursion-Level": String(level) } }));
  return direct.get(key)!;
}

/** Counters, so a matrix that checks nothing cannot pass. */
const seen = { full: new Set<string>(), bare: new Set<string>(), compared: 0 };

/**
 * Checks `obj`, resource `name` as `caller` receives it at `level`, against the rule, and every
 * resource it nests, recursively. `where` names the spot in failure messages.
 */
async function check(caller: Caller, name: string, obj: Record<string, any>, level: number, where: string): Promise<void> {
  const omits = caller === "shopper" ? (SHOPPER_OMITS[name] ?? []) : [];
  for (const prop of omits) expect(obj, `${where}: ${prop} is not the shopper's`).not.toHaveProperty(prop);
  if (caller !== "shopper") {
    for (const prop of SHOPPER_OMITS[name] ?? []) {
      if (RESOURCES.get(name)!.properties.get(prop)!.level <= level) expect(obj, `${where}: ${prop}`).toHaveProperty(prop);
    }
  }
  for (const n of NESTINGS.filter((x) => x.from === name)) {
    const value = obj[n.prop];
    const at = `${where}.${n.prop}`;
    if (n.level > level) {
      expect(value, `${at} shows from level ${n.level}`).toBeUndefined();
      continue;
    }
    expect(value, `${at} is shown at level ${level}`).not.toBeUndefined();
    for (const [i, item] of (Array.isArray(value) ? value : value === null ? [] : [value]).entries()) {
      await checkNested(caller, n, item, level - 1, `${at}${Array.isArray(value) ? `[${i}]` : ""}`);
    }
  }
}

/** One nested object, at `level` (its outer resource's level - 1). */
async function checkNested(caller: Caller, n: (typeof NESTINGS)[number], item: Record<string, any>, level: number, at: string): Promise<void> {
  const readable = mayRead(caller, n.to, item.id);
  if (level === 0 || !readable) {
    expect(item, `${at}: a bare reference`).toEqual({ id: expect.anything() });
    if (level > 0) seen.bare.add(`${caller} ${n.from}.${n.prop}`);
  } else {
    seen.full.add(`${caller} ${n.from}.${n.prop}`);
    if (n.to === "authentication_point") expect(Object.keys(item).sort(), at).toEqual(["base_url", "id", "service_client", "type"]);
    await check(caller, n.to, item, level, at);
  }
  if (n.to === "authentication_point") return; // no path of its own
  // The caller's own GET agrees: 200 and the same object one level down, or 544 when the rule says no.
  const own = await get(caller, pathOf(n.to, item.id), Math.max(level, 0));
  expect({ at, status: own.status }).toEqual({ at, status: readable ? 200 : 404 });
  if (readable && level > 0) expect(item, at).toEqual(own.body.results);
  seen.compared++;
}

/**
 * `caller`'s whole matrix: every resource by id and in its list, at every level, each checked by
 * the rule (which fills `seen`). Walked once, by whichever test asks first: that caller's own test,
 * or the coverage test, which then needs no other test to have run before it.
 */
const walks = new Map<Caller, Promise<void>>();
function walked(caller: Caller): Promise<void> {
  if (!walks.has(caller)) walks.set(caller, walk(caller));
  return walks.get(caller)!;
}

async function walk(caller: Caller): Promise<void> {
  for (const name of EVERYTHING) {
    for (const level of LEVELS) {
      for (const id of w.ids[name]!) {
        const res = await get(caller, pathOf(name, id), level);
        const where = `${caller} GET ${name} ${id} L${level}`;
        expect({ where, status: res.status }).toEqual({ where, status: mayRead(caller, name, id) ? 200 : 404 });
        if (res.status === 200) await check(caller, name, res.body.results, level, where);
      }
      const decl = RESOURCES.get(name)!;
      if (name === "chain" || !MAY_GET[caller].includes(name)) continue;
      const list = await w.core.json(decl.pluralPath, { headers: { ...w.headers[caller], "X-Service-Response-Recursion-Level": String(level) } });
      expect(list.status, `${caller} list ${name}`).toBe(200);
      expect(list.body.results.resources.length, `${caller} list ${name}`).toBeGreaterThan(0);
      for (const item of list.body.results.resources) await check(caller, name, item, level, `${caller} list ${name} L${level} #${item.id}`);
    }
  }
}

describe("a nested resource shows only what the caller may read of it directly", () => {
  it("names every nested reference the declarations have", () => {
    const declared = [...RESOURCES.values()].flatMap((d) =>
      [...d.properties.values()].filter((p) => p.reference !== undefined && RESOURCES.has(p.reference)).map((p) => `${d.name}.${p.name} -> ${p.reference}`),
    );
    expect(declared.sort()).toEqual(NESTINGS.map((n) => `${n.from}.${n.prop} -> ${n.to}`).sort());
  });

  it.each(CALLERS)("for a %s: every resource by id and in its list, at levels 0-4", (caller) => walked(caller));

  // Walks every caller's matrix not yet walked, so it may take as long as all the tests above.
  it("reached every nesting each caller can reach, in full where it may read and as {id} where it may not", { timeout: 120_000 }, async () => {
    for (const caller of CALLERS) await walked(caller);
    const full = (caller: Caller) => NESTINGS.filter((n) => mayReadKind(caller, n.from) && mayReadKind(caller, n.to)).map((n) => `${caller} ${n.from}.${n.prop}`);
    const bare = (caller: Caller) => NESTINGS.filter((n) => mayReadKind(caller, n.from) && !mayReadKind(caller, n.to)).map((n) => `${caller} ${n.from}.${n.prop}`);
    for (const caller of CALLERS) {
      for (const key of full(caller)) expect(seen.full, key).toContain(key);
      for (const key of bare(caller)) expect(seen.bare, key).toContain(key);
    }
    // The shopper's voucher replacing another user's voucher: that parent as {id}.
    expect(seen.bare).toContain("shopper voucher.parent_voucher");
    expect(seen.compared).toBeGreaterThan(200);
  });
});

/** Whether `caller` may read some record of `name` (the authentication point as part of the chain). */
function mayReadKind(caller: Caller, name: string): boolean {
  return MAY_GET[caller].includes(name === "authentication_point" ? "chain" : name);
}
