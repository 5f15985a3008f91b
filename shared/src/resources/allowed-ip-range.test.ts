import { describe, expect, it } from "vitest";
import { allowedIpRangeResource } from "./allowed-ip-range.ts";
import { chainResource } from "./chain.ts";
import { RESOURCES } from "./resource-registry.ts";

const p = (n: string) => allowedIpRangeResource.properties.get(n)!;

describe("AllowedIpRange declaration", () => {
  it("has the spec's fields, levels and flags", () => {
    expect([...allowedIpRangeResource.properties.keys()].sort()).toEqual(
      ["chain", "cidr", "created_date", "deleted", "id", "last_modified_date", "last_updated_by", "notes"],
    );
    expect(allowedIpRangeResource.path).toBe("/resources/allowed_ip_range");
    expect(allowedIpRangeResource.pluralPath).toBe("/resources/allowed_ip_ranges");
    expect(allowedIpRangeResource.identifiers).toEqual(["cidr", "id"]);
    expect(p("chain")).toMatchObject({ level: 1, readOnly: true, immutable: true, kind: "reference", reference: "chain" });
    expect(p("cidr")).toMatchObject({ level: 1, identifier: true, filter: true, requiredOnPost: true, nullable: false });
    expect([...p("cidr").writeOps].sort()).toEqual(["patch", "post", "put"]);
    expect(p("notes")).toMatchObject({ level: 1, nullable: true });
    expect(p("notes").schema.safeParse("n".repeat(256)).success).toBe(false);
    const sorts = [...allowedIpRangeResource.properties.values()].filter((x) => x.sort).map((x) => x.name).sort();
    expect(sorts).toEqual(["created_date", "last_modified_date"]);
    expect(RESOURCES.get("allowed_ip_range")).toBe(allowedIpRangeResource);
  });
});

describe("Chain declaration decisions", () => {
  const c = (n: string) => chainResource.properties.get(n)!.schema;
  it("takes currency as an object with an integer id", () => {
    expect(c("currency").safeParse({ id: 3, code: "EUR" }).success).toBe(true);
    expect(c("currency").safeParse({}).success).toBe(false);
    expect(c("currency").safeParse("EUR").success).toBe(false);
  });

  it("accepts only http(s) URLs, a non-empty name and a non-negative multiplier", () => {
    expect(c("image_url").safeParse("https://cdn.example/a.png").success).toBe(true);
    expect(c("jwt_jwks_url").safeParse("http://localhost:8080/jwks").success).toBe(true);
    for (const bad of ["javascript:alert(1)", "ftp://x.example/a", "data:text/html,x"]) {
      expect(c("image_url").safeParse(bad).success).toBe(false);
    }
    expect(c("name").safeParse("").success).toBe(false);
    expect(c("competition_win_rate_multiplier").safeParse(-0.1).success).toBe(false);
  });
});
