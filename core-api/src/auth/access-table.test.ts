/**
 * The access table's rules, without a database: the pure checks every caller goes through
 * (mayAttempt before anything is read, verdictOf on what the caller holds on the chain).
 */
import { describe, expect, it } from "vitest";
import { ADD_ADMIN_USER, CALL_ACCESS, mayAttempt, RESOURCE_ACCESS, resourceRule, verdictOf, type ChainHolding } from "./access-table.ts";
import { ACCESS_LEVELS, type AccessLevel, type AccessLevels } from "../db/permissions.ts";

const levels = (...held: AccessLevel[]): AccessLevels => Object.fromEntries(ACCESS_LEVELS.map((l) => [l, held.includes(l)])) as AccessLevels;
const CHAIN_SCOPE: ChainHolding = { kinds: ["chain_scope", "read_businesses"], levels: levels(...ACCESS_LEVELS.filter((l) => l !== "super_user")), addressAllowed: true };
const READ_BUSINESSES: ChainHolding = { kinds: ["read_businesses"], levels: null, addressAllowed: true };
const SHOPPER: ChainHolding = { kinds: ["end_user"], levels: null, addressAllowed: true };
const admin = (held: AccessLevel[], addressAllowed = true): ChainHolding => ({ kinds: ["admin"], levels: levels(...held), addressAllowed });

describe("mayAttempt: the caller kind, before anything is read", () => {
  it("refuses the kinds a row does not list, and operations without a row", () => {
    expect(mayAttempt(resourceRule("voucher", "update"), "end_user")).toBe(false);
    expect(mayAttempt(resourceRule("voucher", "get"), "end_user")).toBe(true);
    expect(mayAttempt(resourceRule("access_token", "get"), "privileged")).toBe(false);
    expect(mayAttempt(resourceRule("business", "get"), "privileged")).toBe(true);
    expect(mayAttempt(resourceRule("chain", "create"), "admin")).toBe(false);
    expect(mayAttempt(resourceRule("no_such_resource", "get"), "admin")).toBe(false);
  });
});

describe("verdictOf: what the caller holds on the chain", () => {
  it("an admin needs the row's level, then an allowed address", () => {
    const update = resourceRule("business", "update")!;
    expect(verdictOf(update, admin(["write"]))).toBe("allowed");
    expect(verdictOf(update, admin(["read", "delete"]))).toBe("denied");
    expect(verdictOf(update, admin(["write"], false))).toBe("address_refused");
    // Without the level the address is not even looked at: the answer stays the plain refusal.
    expect(verdictOf(update, admin(["read"], false))).toBe("denied");
  });

  it("a chain-scope token holds every level but super_user", () => {
    expect(verdictOf(resourceRule("business", "delete")!, CHAIN_SCOPE)).toBe("allowed");
    expect(verdictOf(resourceRule("allowed_ip_range", "create")!, CHAIN_SCOPE)).toBe("denied");
    expect(verdictOf(resourceRule("chain", "update")!, CHAIN_SCOPE)).toBe("denied");
    expect(verdictOf(resourceRule("service_client", "get")!, CHAIN_SCOPE)).toBe("denied");
  });

  it("read_businesses reads businesses and calls get-businesses, nothing else", () => {
    expect(verdictOf(resourceRule("business", "list")!, READ_BUSINESSES)).toBe("allowed");
    expect(verdictOf(resourceRule("business", "create")!, READ_BUSINESSES)).toBe("denied");
    expect(verdictOf(resourceRule("voucher", "get")!, READ_BUSINESSES)).toBe("denied");
    expect(verdictOf(CALL_ACCESS["get-businesses"], READ_BUSINESSES)).toBe("allowed");
    expect(verdictOf(CALL_ACCESS["get-campaign"], READ_BUSINESSES)).toBe("denied");
  });

  it("a shopper reads businesses, vouchers and content pages, and writes nothing", () => {
    const rows = Object.entries(RESOURCE_ACCESS).flatMap(([name, ops]) => Object.entries(ops).map(([op, rule]) => ({ name, op, rule: rule! })));
    const allowed = rows.filter((r) => verdictOf(r.rule, SHOPPER) === "allowed").map((r) => `${r.name} ${r.op}`);
    expect(allowed.sort()).toEqual(["business get", "business list", "content-page get", "content-page list", "voucher get", "voucher list"]);
    // get-user, alter-user, verify-phone-number, get-basket-price and apply-referral-code let a shopper in; their handlers confine the shopper to themselves
    const calls = Object.entries(CALL_ACCESS).filter(([, rule]) => verdictOf(rule, SHOPPER) === "allowed").map(([name]) => name);
    expect(calls.sort()).toEqual(["alter-user", "apply-referral-code", "get-basket-price", "get-user", "verify-phone-number"]);
  });

  it("nothing is granted to a caller holding nothing on the chain", () => {
    const nothing: ChainHolding = { kinds: [], levels: null, addressAllowed: true };
    expect(verdictOf(resourceRule("business", "get")!, nothing)).toBe("denied");
  });
});

describe("the rows of the internal calls", () => {
  it("follow the spec's Auth lines", () => {
    expect(CALL_ACCESS["add-business"]).toMatchObject({ callers: ["admin", "chain_scope"], level: "write" });
    expect(CALL_ACCESS["alter-business"]).toMatchObject({ callers: ["admin", "chain_scope"], level: "write" });
    expect(CALL_ACCESS["get-businesses"]).toMatchObject({ callers: ["admin", "chain_scope", "read_businesses"], level: "read" });
    expect(CALL_ACCESS["add-campaign"]).toMatchObject({ level: "write" });
    expect(CALL_ACCESS["alter-campaign"]).toMatchObject({ level: "write" });
    expect(CALL_ACCESS["get-campaign"]).toMatchObject({ level: "read" });
    expect(CALL_ACCESS["add-user"]).toMatchObject({ callers: ["admin", "chain_scope"], level: "assign" });
    expect(CALL_ACCESS[ADD_ADMIN_USER]).toMatchObject({ callers: ["admin"], level: "super_user" });
    expect(CALL_ACCESS["get-user"]).toMatchObject({ callers: ["admin", "chain_scope", "end_user"], level: "read" });
    expect(CALL_ACCESS["alter-user"]).toMatchObject({ callers: ["admin", "chain_scope", "end_user"], level: "assign" });
    expect(CALL_ACCESS["add-basket"]).toMatchObject({ callers: ["admin", "chain_scope"], level: "write" });
    for (const row of Object.values(CALL_ACCESS)) expect(row.denied).toBe("permission_denied_or_non_existent");
  });

  it("follow the deletions' Auth lines: delete-campaign write and campaign, the group DELETE, the tag calls admins only", () => {
    expect(CALL_ACCESS["delete-campaign"]).toMatchObject({ callers: ["admin", "chain_scope"], level: "write", alsoLevels: ["campaign"] });
    expect(CALL_ACCESS["delete-campaign-group"]).toMatchObject({ callers: ["admin", "chain_scope"], level: "delete" });
    expect(CALL_ACCESS["delete-tag"]).toEqual({ callers: ["admin"], level: "delete", denied: "permission_denied_or_non_existent" });
    expect(CALL_ACCESS["add-tag"]).toMatchObject({ callers: ["admin"], level: "write" });
    expect(CALL_ACCESS["get-tags"]).toMatchObject({ callers: ["admin"], level: "read" });
  });

  it("a row with further levels needs every one of them", () => {
    const row = CALL_ACCESS["delete-campaign"];
    expect(verdictOf(row, admin(["write"]))).toBe("denied");
    expect(verdictOf(row, admin(["campaign"]))).toBe("denied");
    expect(verdictOf(row, admin(["write", "campaign"]))).toBe("allowed");
    expect(verdictOf(row, admin(["write", "campaign"], false))).toBe("address_refused");
    expect(verdictOf(row, CHAIN_SCOPE)).toBe("allowed");
  });
});
