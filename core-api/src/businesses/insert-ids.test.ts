/**
 * No id arithmetic: each new business's id is read back from its own INSERT, so the ids answered
 * and the ids the search words point at are the stored rows' whatever the server hands out. Here
 * every connection steps ids by 3 from offset 2 (`auto_increment_increment`, as each node of a
 * Galera cluster does), which `firstId + i` or `LAST_INSERT_ID() + n` would get wrong.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { TEST_DATABASE_URL } from "../../../test/helpers/databases.ts";
import { openCoreDatabase, type CoreDatabase } from "../db/client.ts";
import { businesses, businessSearchTokens } from "../db/schema.ts";
import { findBusinessById, insertBusiness, insertBusinesses, type BusinessRow } from "./business-repository.ts";

let core: TestCore;
let stepped: CoreDatabase;
const NOW = new Date("2026-02-01T10:00:00Z");

beforeAll(async () => {
  core = await startCore();
  stepped = openCoreDatabase(TEST_DATABASE_URL, core.dbName);
  stepped.pool.pool.on("connection", (conn) => {
    conn.query("SET SESSION auto_increment_increment = 3, auto_increment_offset = 2");
  });
});
afterAll(async () => {
  await stepped.close();
  await core.close();
});

/** Every row answered is the stored one, and its own words (and only they) point at it. */
async function expectStoredAsAnswered(rows: BusinessRow[]) {
  const ids = rows.map((r) => r.id);
  expect(new Set(ids).size).toBe(rows.length);
  for (const row of rows) expect(await findBusinessById(core.db, row.chainId, row.id)).toEqual(row);
  const words = await core.db.select().from(businessSearchTokens).where(inArray(businessSearchTokens.businessId, ids));
  for (const row of rows) {
    const own = words.filter((w) => w.businessId === row.id).map((w) => w.token);
    expect(own).toContain(row.ownerCode!.toLowerCase().split("-")[1]);
  }
}

describe("ids stepped by 3 (auto_increment_increment)", () => {
  it("insertBusinesses answers each row's own id, and its words point at it", async () => {
    const rows = await insertBusinesses(stepped.db, Array.from({ length: 8 }, (_, i) => ({ chainId: core.chainId, name: `Stap ${i}`, ownerCode: `ST-u${i}x` })), NOW);
    // the server really did step them: no two consecutive
    const sorted = rows.map((r) => r.id).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThan(1);
    await expectStoredAsAnswered(rows);
  });

  it("concurrent insertBusiness calls (one group-commit transaction) each answer their own row", async () => {
    const rows = await Promise.all(Array.from({ length: 12 }, (_, i) => insertBusiness(stepped.db, { chainId: core.chainId, name: `Groep ${i}`, ownerCode: `GR-g${i}y` }, NOW)));
    await expectStoredAsAnswered(rows);
    const [stored] = await core.db.select().from(businesses).where(eq(businesses.id, rows[5]!.id));
    expect(stored!.name).toBe("Groep 5");
  });
});
