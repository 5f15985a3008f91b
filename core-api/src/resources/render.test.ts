import { businessResource } from "@service/shared/resources/business";
import { RESOURCES } from "@service/shared/resources/resource-registry";
import { describe, expect, it } from "vitest";
import { voucherResource } from "@service/shared/resources/voucher";
import type { CallerKind } from "../auth/access-table.ts";
import { readViewOf } from "./read-view.ts";
import { parseRecursionLevel, renderResource, rendererCompilations } from "./render.ts";

const decl = businessResource;
const created = new Date("2026-03-04T05:06:07.890Z");
const record = {
  id: 7,
  name: "Shop",
  owner_code: "S-7",
  chain: { id: 3, name: "Chain", deleted: false, created_date: created, last_modified_date: created },
  chain_member: true,
  created_date: created,
  last_modified_date: created,
  towncity: null,
  business_distance_km: undefined,
};
const opts = { version: [1, 6, 8] as const, resources: RESOURCES };

describe("renderResource", () => {
  it("level 0 is the id alone", () => {
    expect(renderResource(decl, record, 0, opts)).toEqual({ id: 7 });
  });

  it("level 1 renders a nested resource at level 0: a bare reference", () => {
    expect(renderResource(decl, record, 1, opts)).toEqual({ id: 7, name: "Shop", owner_code: "S-7", chain: { id: 3 } });
  });

  it("level 2 renders the chain at level 1 with the Chain declaration; nulls stay, undefined is left out", () => {
    const out = renderResource(decl, record, 2, opts);
    expect(out.chain).toEqual({ id: 3, name: "Chain", deleted: false });
    expect(out).toHaveProperty("towncity", null);
    expect(out).not.toHaveProperty("business_distance_km");
    expect(out).not.toHaveProperty("chain_member");
    expect(out.created_date).toBe("2026-03-04T05:06:07Z");
  });

  it("level 3 includes the chain's level-2 properties; level 4 the business's level-4 ones", () => {
    expect(renderResource(decl, record, 3, opts).chain).toHaveProperty("created_date", "2026-03-04T05:06:07Z");
    expect(renderResource(decl, record, 4, opts)).toHaveProperty("chain_member", true);
  });

  it("formats datetimes per API version, nested ones too", () => {
    const old = renderResource(decl, record, 3, { ...opts, version: [1, 5, 8] });
    expect(old.created_date).toBe("2026-03-04 05:06:07");
    expect((old.chain as any).last_modified_date).toBe("2026-03-04 05:06:07");
  });

  it("renders an undeclared reference as {id}", () => {
    expect(renderResource(decl, record, 2, { ...opts, resources: new Map() }).chain).toEqual({ id: 3 });
  });
});

describe("renderResource for one caller's view", () => {
  const holding = (kinds: CallerKind[]) => ({ kinds, levels: null, addressAllowed: true });
  const shopper = () => ({ ...opts, view: readViewOf(holding(["end_user"]), true), userId: 42 });

  it("a shopper's view leaves out the end-user omissions and renders the chain it may not GET as {id}, at every level", () => {
    for (const level of [1, 2, 3, 4]) {
      expect(renderResource(decl, record, level, shopper())).toEqual(
        level === 1 ? { id: 7, name: "Shop", owner_code: "S-7", chain: { id: 3 } } : { id: 7, name: "Shop", owner_code: "S-7", chain: { id: 3 }, towncity: null },
      );
    }
    const reader = { ...opts, view: readViewOf(holding(["read_businesses"]), false) };
    expect(renderResource(decl, record, 4, reader)).toMatchObject({ chain: { id: 3 }, chain_member: true, created_date: "2026-03-04T05:06:07Z" });
  });

  it("a nested resource the caller may read keeps the omissions of its direct GET; a shopper's nested voucher shows only when it is theirs", () => {
    const parent = (userId: number) => ({ id: 5, key: "k".repeat(64), status: "generated", type: "basket", user: { id: userId }, deleted: false, campaign: { id: 9 } });
    const voucher = { id: 6, user: { id: 42 }, parent_voucher: parent(42), redemption_exclusive_business: record };
    const out = renderResource(voucherResource, voucher, 3, shopper());
    expect(out.parent_voucher).toEqual({ id: 5, key: "k".repeat(64), status: "generated", type: "basket", campaign: { id: 9 } });
    expect(out.redemption_exclusive_business).toEqual({ id: 7, name: "Shop", owner_code: "S-7", chain: { id: 3 }, towncity: null });
    expect(renderResource(voucherResource, { ...voucher, parent_voucher: parent(43) }, 3, shopper()).parent_voucher).toEqual({ id: 5 });
    expect(renderResource(voucherResource, { ...voucher, parent_voucher: parent(42) }, 3, { ...shopper(), userId: null }).parent_voucher).toEqual({ id: 5 });
    // An admin's view: everything, the owner and the chain included.
    expect(renderResource(voucherResource, { ...voucher, parent_voucher: parent(43) }, 3, opts).parent_voucher).toMatchObject({ user: { id: 43 }, deleted: false });
  });

  it("renders repeated shopper records with one renderer per view and level, output unchanged", () => {
    const first = renderResource(decl, record, 4, shopper());
    const compiled = rendererCompilations();
    // The same view, asked for again (views are interned): no new renderer.
    const again = Array.from({ length: 25 }, () => renderResource(decl, record, 4, shopper()));
    expect(rendererCompilations()).toBe(compiled);
    for (const out of again) expect(out).toEqual(first);
    expect(readViewOf(holding(["end_user"]), true)).toBe(shopper().view);
    // The full view keeps its own renderers, not the shopper's.
    expect(renderResource(decl, record, 4, opts)).toMatchObject({ name: "Shop", chain_member: true, chain: { name: "Chain" } });
  });
});

describe("parseRecursionLevel", () => {
  it("defaults to 2 and accepts 0..4", () => {
    expect(parseRecursionLevel(undefined)).toBe(2);
    expect(parseRecursionLevel("")).toBe(2);
    expect([0, 1, 2, 3, 4].map((n) => parseRecursionLevel(String(n)))).toEqual([0, 1, 2, 3, 4]);
  });

  it("refuses anything else with 419 parameter_invalid", () => {
    for (const bad of ["5", "-1", "x", "2.0", "10"]) {
      expect(() => parseRecursionLevel(bad)).toThrow(expect.objectContaining({ errorName: "parameter_invalid", status: 400 }));
    }
  });
});
