import { businessResource } from "@service/shared/resources/business";
import { chainResource } from "@service/shared/resources/chain";
import { describe, expect, it } from "vitest";
import type { CallerKind, ChainHolding } from "../auth/access-table.ts";
import { ACCESS_LEVELS, type AccessLevel } from "../db/permissions.ts";
import { readViewOf } from "./read-view.ts";

const levels = (...held: AccessLevel[]) => Object.fromEntries(ACCESS_LEVELS.map((l) => [l, held.includes(l)])) as ChainHolding["levels"];
const holding = (kinds: CallerKind[], lv: ChainHolding["levels"] = null, addressAllowed = true): ChainHolding => ({ kinds, levels: lv, addressAllowed });

describe("readViewOf", () => {
  it("a super-user admin reads everything; an admin with read alone not the super-user resources; without read nothing", () => {
    const su = readViewOf(holding(["admin"], levels(...ACCESS_LEVELS)), false);
    for (const name of ["chain", "service_client", "authentication_point", "webhook", "event_delivery"]) expect(su.reading(name), name).toBe("all");
    const reader = readViewOf(holding(["admin"], levels("read")), false);
    expect([reader.reading("chain"), reader.reading("service_client"), reader.reading("webhook")]).toEqual(["all", "all", "none"]);
    const none = readViewOf(holding(["admin"], levels("campaign")), false);
    expect([none.reading("business"), none.reading("chain")]).toEqual(["none", "none"]);
    expect(readViewOf(holding(["admin"], levels("read"), false), false).reading("business")).toBe("none");
    expect(su.omitted(businessResource)).toBeUndefined();
  });

  it("tokens: a chain scope reads the chain and its authentication point but no service client; read_businesses only businesses", () => {
    const scope = readViewOf(holding(["chain_scope", "read_businesses"], levels(...ACCESS_LEVELS.filter((l) => l !== "super_user"))), false);
    expect(["chain", "authentication_point", "allowed_ip_range", "service_client", "access_token"].map((n) => scope.reading(n))).toEqual(["all", "all", "all", "none", "none"]);
    const reader = readViewOf(holding(["read_businesses"]), false);
    expect(["business", "chain", "voucher"].map((n) => reader.reading(n))).toEqual(["all", "none", "none"]);
  });

  it("a shopper: businesses and content pages, own vouchers, no chain; the end-user omissions", () => {
    const shopper = readViewOf(holding(["end_user"]), true);
    expect(["business", "content-page", "voucher", "chain", "authentication_point"].map((n) => shopper.reading(n))).toEqual(["all", "all", "own", "none", "none"]);
    expect([...shopper.omitted(businessResource)!].sort()).toEqual([...businessResource.omitFor!.end_user!].sort());
    expect(shopper.omitted(chainResource)).toBeUndefined();
  });

  it("is interned: equal holdings (fresh objects) give the same view, others another", () => {
    const a = readViewOf(holding(["admin"], levels("read", "write")), false);
    expect(readViewOf(holding(["admin"], levels("read", "write")), false)).toBe(a);
    // The same resources readable: the same view, so the same renderers.
    expect(readViewOf(holding(["admin"], levels("read")), false)).toBe(a);
    expect(readViewOf(holding(["admin"], levels("read", "super_user")), false)).not.toBe(a);
    expect(readViewOf(holding(["end_user"]), true)).not.toBe(readViewOf(holding(["read_businesses"]), false));
  });
});
