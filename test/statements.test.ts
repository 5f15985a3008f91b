/**
 * The statement counter of the test helpers counts what really goes over the wire, so the
 * round-trip tests built on it can fail.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "./helpers/core.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

describe("countStatements", () => {
  it("counts plain statements and each statement of a transaction, begin and commit included", async () => {
    core.statements.reset();
    await core.db.execute(sql`select 1`);
    await core.db.execute(sql`select 2`);
    expect(core.statements.count).toBe(2);

    core.statements.reset();
    await core.db.transaction(async (tx) => {
      await tx.execute(sql`select 3`);
    });
    expect(core.statements.statements.map((s) => s.toLowerCase())).toEqual(["begin", "select 3", "commit"]);
  });

  it("counts the statements of a request", async () => {
    const admin = await core.admin({ read: true });
    core.statements.reset();
    const res = await core.request("/resources/businesses", { headers: admin.headers });
    expect(res.status).toBe(200);
    expect(core.statements.count).toBeGreaterThan(0);
  });
});
