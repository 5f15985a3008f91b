import { businessResource } from "@service/shared/resources/business";
import { RESOURCES } from "@service/shared/resources/resource-registry";
import { describe, expect, it } from "vitest";
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

  it("leaves out omitted properties and renders an undeclared reference as {id}", () => {
    expect(renderResource(decl, record, 4, { ...opts, omit: new Set(["chain_member", "created_date"]) })).not.toHaveProperty("chain_member");
    expect(renderResource(decl, record, 2, { ...opts, resources: new Map() }).chain).toEqual({ id: 3 });
  });

  it("renders repeated shopper records with one renderer per omitted set and level, output unchanged", () => {
    const omitted = decl.omitFor!.end_user!;
    const shopper = { ...opts, omit: new Set(omitted) };
    const first = renderResource(decl, record, 4, shopper);
    const compiled = rendererCompilations();
    // The same set, an equal set built again, an equal set in another order: no new renderer.
    const again = [
      ...Array.from({ length: 25 }, () => renderResource(decl, record, 4, shopper)),
      renderResource(decl, record, 4, { ...opts, omit: new Set(omitted) }),
      renderResource(decl, record, 4, { ...opts, omit: new Set([...omitted].reverse()) }),
    ];
    expect(rendererCompilations()).toBe(compiled);
    for (const out of again) expect(out).toEqual(first);
    expect(first).toEqual({ id: 7, name: "Shop", owner_code: "S-7", chain: { id: 3, name: "Chain", deleted: false, created_date: "2026-03-04T05:06:07Z", last_modified_date: "2026-03-04T05:06:07Z" }, towncity: null });
    // Another omitted set and no omissions keep their own renderers, not the shopper's.
    expect(renderResource(decl, record, 4, { ...opts, omit: new Set(["name"]) })).not.toHaveProperty("name");
    expect(renderResource(decl, record, 4, { ...opts, omit: new Set(["name"]) })).toHaveProperty("chain_member", true);
    expect(renderResource(decl, record, 4, opts)).toMatchObject({ name: "Shop", chain_member: true });
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
