import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { businessSearchTokens } from "../db/schema.ts";
import { deleteBusiness, findBusinessesByIds, insertBusiness, updateBusiness } from "./business-repository.ts";
import { withLcpPrev } from "./word-index.ts";

let core: TestCore;
const NOW = new Date("2026-11-21T10:00:00Z");
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const tokensOf = async (id: number) =>
  (await core.db.select().from(businessSearchTokens).where(eq(businessSearchTokens.businessId, id))).map((t) => t.token).sort();

describe("updateBusiness", () => {
  it("treats keys whose value is undefined as unchanged: grid cell and search words stay", async () => {
    const shop = await insertBusiness(core.db, { chainId: core.chainId, name: "Albert Heijn", ownerCode: "AH-1", latitude: 52.1, longitude: 4.3 }, NOW);
    const updated = await updateBusiness(core.db, core.chainId, shop.id, { name: undefined, ownerCode: undefined, latitude: undefined, towncity: "Leiden" }, NOW);
    expect(updated).toMatchObject({ name: "Albert Heijn", towncity: "Leiden", latitude: 52.1, geoCell: shop.geoCell });
    expect(updated!.geoCell).not.toBeNull();
    expect(await tokensOf(shop.id)).toEqual(["1", "ah", "albert", "heijn"]);
  });
});

describe("findBusinessesByIds", () => {
  it("returns live businesses in the order asked, skipping unknown and deleted ones", async () => {
    const a = await insertBusiness(core.db, { chainId: core.chainId, name: "A" }, NOW);
    const b = await insertBusiness(core.db, { chainId: core.chainId, name: "B" }, NOW);
    const c = await insertBusiness(core.db, { chainId: core.chainId, name: "C" }, NOW);
    await deleteBusiness(core.db, core.chainId, b.id, null, NOW);
    expect((await findBusinessesByIds(core.db, [c.id, b.id, 999999, a.id])).map((r) => r.name)).toEqual(["C", "A"]);
  });
});

describe("withLcpPrev", () => {
  it("gives each word its longest common prefix with an earlier word", () => {
    expect(withLcpPrev(["bakkerij", "bakery", "bar", "jumbo", "bakkerij2"])).toEqual([
      { token: "bakkerij", lcpPrev: 0 },
      { token: "bakery", lcpPrev: 3 },
      { token: "bar", lcpPrev: 2 },
      { token: "jumbo", lcpPrev: 0 },
      { token: "bakkerij2", lcpPrev: 8 },
    ]);
  });
  it("leaves exactly one word per prefix with lcp_prev below the prefix length", () => {
    const words = withLcpPrev(["bakkerij", "bakery", "baker", "bar", "b", "ba"]);
    for (const prefix of ["b", "ba", "bak", "bake", "baker", "bakk", "bar", "x"]) {
      const firsts = words.filter((w) => w.token.startsWith(prefix) && w.lcpPrev < prefix.length);
      expect(firsts.length).toBe(words.some((w) => w.token.startsWith(prefix)) ? 1 : 0);
    }
  });
});
