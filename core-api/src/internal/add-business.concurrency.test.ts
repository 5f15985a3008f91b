/**
 * add-business with update_if_exists under concurrency: many simultaneous calls naming one
 * owner_code all succeed and leave exactly one business.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { encode } from "../../../test/helpers/internal-calls.ts";

let core: TestCore;
let admin: TestAdmin;
beforeAll(async () => {
  core = await startCore();
  admin = await core.admin({ write: true });
});
afterAll(() => core.close());

const PARALLEL = 20;

async function liveRows(ownerCode: string): Promise<Array<{ id: number; name: string }>> {
  const [rows] = (await core.db.execute(
    sql`SELECT id, name FROM businesses WHERE chain_id = ${core.chainId} AND owner_code = ${ownerCode} AND deleted = 0`,
  )) as unknown as [Array<{ id: number; name: string }>];
  return rows;
}

describe("add-business: update_if_exists under concurrency", () => {
  it(`${PARALLEL} parallel calls with one new owner_code all succeed and leave one business`, async () => {
    const calls = Array.from({ length: PARALLEL }, (_, i) =>
      core.json(
        "/internal/add-business",
        encode("json", "POST", admin.headers, { chain_id: core.chainId, name: `Racer ${i}`, owner_code: "RACE-1", update_if_exists: true }),
      ),
    );
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(200));
    const rows = await liveRows("RACE-1");
    expect(rows).toHaveLength(1);
    // Every answer shows that one business: the creator's and the updaters' alike.
    expect(new Set(answers.map((a) => a.body.results.business.id))).toEqual(new Set([rows[0]!.id]));
    expect(answers.map((a) => a.body.results.business.name)).toContain(rows[0]!.name);
  });

  it("without update_if_exists, parallel calls with one owner_code give one 200 and 311 for the rest", async () => {
    const calls = Array.from({ length: 8 }, (_, i) =>
      core.json("/internal/add-business", encode("json", "POST", admin.headers, { chain_id: core.chainId, name: `Plain ${i}`, owner_code: "RACE-2" })),
    );
    const answers = await Promise.all(calls);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(7);
    for (const a of refused) expect([a.status, a.body.error.code, a.body.error.name]).toEqual([400, 311, "business_already_exists"]);
    expect(await liveRows("RACE-2")).toHaveLength(1);
  });
});
