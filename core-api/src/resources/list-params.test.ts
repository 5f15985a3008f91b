import { businessResource } from "@service/shared/resources/business";
import type { ResourceDeclaration } from "@service/shared/resources/meta";
import { describe, expect, it } from "vitest";
import { nestBracketKeys } from "../http/params.ts";
import { parseListParams } from "./list-params.ts";

const decl = businessResource;
/** The query as the engine passes it: nested from its bracket keys (http/params.ts). */
const parse = (qs: string) => parseListParams(decl, nestBracketKeys(new URLSearchParams(qs)));
const invalid = (qs: string) => expect(() => parse(qs), qs).toThrow(expect.objectContaining({ errorName: "parameter_invalid" }));

describe("parseListParams", () => {
  it("defaults: limit 25, offset 0, ascending natural order, no filters", () => {
    expect(parse("")).toEqual({ limit: 25, offset: 0, order: "asc", filters: {} });
  });

  it("limit 1..500 and offset >= 0", () => {
    expect(parse("limit=1&offset=0")).toMatchObject({ limit: 1, offset: 0 });
    expect(parse("limit=500&offset=9999")).toMatchObject({ limit: 500, offset: 9999 });
    for (const bad of ["limit=0", "limit=501", "limit=", "limit=2.5", "offset=-1", "offset=x"]) invalid(bad);
  });

  it("sort_by takes only S properties; sort_order asc|desc", () => {
    expect(parse("sort_by=created_date&sort_order=desc").sort).toEqual({ property: "created_date", order: "desc" });
    expect(parse("sort_order=DESC&sort_by=last_modified_date").sort).toEqual({ property: "last_modified_date", order: "desc" });
    expect(parse("sort_order=desc")).toMatchObject({ order: "desc" });
    expect(parse("sort_order=desc").sort).toBeUndefined();
    for (const bad of ["sort_by=name", "sort_by=", "sort_order=random"]) invalid(bad);
  });

  it("reads a filter per F property in its type", () => {
    expect(parse("id=3&name=A%20B&owner_code=X&country_code=NL&region=R&towncity=T&is_shut_down=0&chain[id]=4").filters).toEqual({
      id: 3, name: "A B", owner_code: "X", country_code: "NL", region: "R", towncity: "T", is_shut_down: false, chain: 4,
    });
    expect(parse("chain=4").filters).toEqual({ chain: 4 });
    expect(parse("is_shut_down=TRUE").filters).toEqual({ is_shut_down: true });
    // The one text rule of both API families: yes/no and on/off are booleans too.
    expect(parse("is_shut_down=yes").filters).toEqual({ is_shut_down: true });
    expect(parse("is_shut_down=Off").filters).toEqual({ is_shut_down: false });
    for (const bad of ["is_shut_down=maybe", "is_shut_down[x]=1", "chain[id]=1&chain[name]=x", "location[latitude]=1&location[longitude]=1&location[x]=1", "id=x", "chain=x", "chain=1&chain[id]=1", "latitude=1", "phone_number=1", "name[id]=1", "unknown=1"]) invalid(bad);
  });

  it("one search key over FT properties; * means all of them", () => {
    expect(parse("search[name]=a%20b").search).toEqual({ properties: ["name"], query: "a b", matchAll: false });
    expect(parse("search[*]=a&match_all=1").search).toEqual({ properties: ["name", "owner_code"], query: "a", matchAll: true });
    expect(parse("search[owner_code]=a&match_all=false").search?.matchAll).toBe(false);
    for (const bad of ["search[name]=a&search[owner_code]=b", "search[region]=a", "search[]=a", "match_all=2"]) invalid(bad);
  });

  it("location search with default radius 25, and the legacy names", () => {
    expect(parse("location[latitude]=52.1&location[longitude]=-4.5").location).toEqual({ latitude: 52.1, longitude: -4.5, radiusKm: 25 });
    expect(parse("search_lat=-90&search_long=180&search_radius_km=2.5").location).toEqual({ latitude: -90, longitude: 180, radiusKm: 2.5 });
    for (const bad of [
      "location[latitude]=1",
      "search_long=1",
      "location[latitude]=90.1&location[longitude]=0",
      "location[latitude]=0&location[longitude]=-180.5",
      "location[latitude]=0&location[longitude]=0&location[radius_km]=-1",
      "location[latitude]=0&location[longitude]=0&location[radius_km]=30000",
      "location[radius_km]=3",
      "location[latitude]=1&search_lat=1&search_long=1",
    ]) invalid(bad);
  });

  it("a resource without location search treats location keys as unknown", () => {
    const noLoc = { ...decl, locationSearch: false } as ResourceDeclaration;
    expect(() => parseListParams(noLoc, { search_lat: "1", search_long: "1" })).toThrow(/Unknown parameter/);
  });
});
