/**
 * The database fingerprint the walkers use to prove "nothing written" changes with any stored
 * value, including a decimal's last digit and NULL versus an empty text, and not otherwise.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { databaseFingerprint } from "./test-values.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

it("changes with every stored value and only then", async () => {
  const fp = () => databaseFingerprint(core.db, core.dbName);
  await core.db.execute(sql`INSERT INTO businesses (chain_id, name, latitude, longitude, created_date, last_modified_date) VALUES (${core.chainId}, 'Shop', 52.3700, 4.9000, NOW(), NOW())`);
  const start = await fp();
  expect(await fp()).toBe(start);
  const steps = [
    sql`UPDATE businesses SET latitude = 52.3701`,
    sql`UPDATE businesses SET region = ''`,
    sql`UPDATE businesses SET region = NULL`,
    sql`UPDATE businesses SET name = 'Shop '`,
  ];
  let previous = start;
  for (const step of steps) {
    await core.db.execute(step);
    const next = await fp();
    expect(next).not.toBe(previous);
    previous = next;
  }
  expect(steps).toHaveLength(4);
});
