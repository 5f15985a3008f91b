import { describe, expect, it } from "vitest";
import { contentPageResource, zoneSchema } from "./content-page.ts";
import { RESOURCES } from "./resource-registry.ts";

const p = (n: string) => contentPageResource.properties.get(n)!;

describe("Content page declaration", () => {
  it("has the spec's fields, levels and flags", () => {
    expect([...contentPageResource.properties.keys()].sort()).toEqual(["deleted", "display_name", "id", "last_modified_date", "name", "order", "parent", "zones"]);
    expect(contentPageResource.path).toBe("/resources/content-page");
    expect(contentPageResource.pluralPath).toBe("/resources/content-pages");
    expect(contentPageResource.identifiers).toEqual(["id", "name"]);
    expect(p("name")).toMatchObject({ level: 0, identifier: true, filter: true, sort: true, requiredOnPost: true, nullable: false });
    expect(p("id")).toMatchObject({ level: 0, readOnly: true, filter: true, sort: true });
    expect(p("order")).toMatchObject({ level: 0, sort: true, default: 0, kind: "integer" });
    expect(p("parent")).toMatchObject({ level: 0, nullable: true, kind: "string" });
    expect(p("zones")).toMatchObject({ level: 1, nullable: true, kind: "array" });
    expect(p("deleted")).toMatchObject({ level: 1, readOnly: true });
    expect(p("last_modified_date")).toMatchObject({ level: 0, readOnly: true, immutable: true, sort: true });
    const filters = [...contentPageResource.properties.values()].filter((x) => x.filter).map((x) => x.name).sort();
    const sorts = [...contentPageResource.properties.values()].filter((x) => x.sort).map((x) => x.name).sort();
    expect(filters).toEqual(["id", "name"]);
    expect(sorts).toEqual(["id", "last_modified_date", "name", "order"]);
    expect(contentPageResource.omitFor?.end_user).toEqual(["deleted"]);
    expect(RESOURCES.get("content-page")).toBe(contentPageResource);
  });

  it("completes a zone with defaults and refuses unknown keys and bad items", () => {
    expect(zoneSchema.parse({ items: [{ type: "campaign", id: 1, extra: "kept" }] })).toEqual({
      title: null,
      show_title: true,
      mode: null,
      tag_filter: [],
      type_filter: [],
      layout_type: null,
      orientation: null,
      items: [{ type: "campaign", id: 1, extra: "kept" }],
    });
    expect(zoneSchema.safeParse({ colour: "red" }).success).toBe(false);
    expect(zoneSchema.safeParse({ items: [{ type: "campaign" }] }).success).toBe(false);
    expect(zoneSchema.safeParse({ items: [{ type: "", id: 1 }] }).success).toBe(false);
    expect(zoneSchema.safeParse({ orientation: "o".repeat(65) }).success).toBe(false);
  });
});
