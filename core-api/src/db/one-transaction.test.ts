import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { TEST_DATABASE_URL } from "../../../test/helpers/databases.ts";
import { openCoreDatabase } from "./client.ts";
import { businesses } from "./schema.ts";
import { insertRows, statementText, writeInOneTransaction } from "./one-transaction.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const NOW = new Date("2026-11-21T10:00:00Z");
const business = (name: string, ownerCode: string | null = null) =>
  core.db.insert(businesses).values({ chainId: core.chainId, name, ownerCode, createdDate: NOW, lastModifiedDate: NOW });
/** Statements of this test's database still running an update of a business's town (this one's left out). */
const lockWaits = async () => {
  const [rows] = (await core.db.$client.query(
    "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID() AND command = 'Query' AND info LIKE '%update `businesses` set `towncity`%'",
    [core.dbName],
  )) as unknown as [Array<{ n: number }>];
  return Number(rows[0]!.n);
};
const names = async () => (await core.db.select({ name: businesses.name }).from(businesses).where(eq(businesses.chainId, core.chainId))).map((r) => r.name).sort();

describe("writeInOneTransaction", () => {
  it("runs the statements in order in one round trip, then the COMMIT; a later one sees what an earlier one did", async () => {
    core.statements.reset();
    const results = await writeInOneTransaction(core.db, [
      business("Eerste"),
      core.db.update(businesses).set({ towncity: "Delft" }).where(eq(businesses.id, sql`LAST_INSERT_ID()`)),
    ]);
    expect(core.statements.statements.at(-1)).toBe("COMMIT");
    expect(core.statements.count).toBe(2);
    expect(results).toHaveLength(2);
    expect(results[0]!.insertId).toBeGreaterThan(0);
    expect(results[1]!.affectedRows).toBe(1);
    const [row] = await core.db.select().from(businesses).where(eq(businesses.id, results[0]!.insertId));
    expect(row).toMatchObject({ name: "Eerste", towncity: "Delft" });
  });

  it("writes nothing when a statement fails, throws the driver's error, and leaves the connection usable", async () => {
    await writeInOneTransaction(core.db, [business("Bezet", "TAKEN-1")]);
    const before = await names();
    const failure = await writeInOneTransaction(core.db, [business("Nooit"), business("Dubbel", "TAKEN-1"), business("Ook nooit")]).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe("ER_DUP_ENTRY");
    expect(await names()).toEqual(before);
    // every connection of the pool is still fit for the next write (none left inside a transaction)
    for (let i = 0; i < 12; i++) await writeInOneTransaction(core.db, [business(`Daarna ${i}`)]);
    expect((await names()).filter((n) => n.startsWith("Daarna"))).toHaveLength(12);
    expect(await names()).not.toContain("Nooit");
  });

  it("writes nothing when the pool gives up on the statements: the COMMIT is never queued behind them", async () => {
    const lockedId = (await writeInOneTransaction(core.db, [business("Sperre")]))[0]!.insertId;
    // another transaction holds the row the write will update, so the write waits past its timeout
    const locker = await core.db.$client.getConnection();
    await locker.query("START TRANSACTION");
    await locker.query("SELECT id FROM businesses WHERE id = ? FOR UPDATE", [lockedId]);
    const impatient = openCoreDatabase(TEST_DATABASE_URL, core.dbName, { connectionLimit: 1, timeouts: { queryTimeoutMs: 200 } });
    try {
      const failure = await writeInOneTransaction(impatient.db, [
        business("Zombie", "ZOMBIE-1"),
        core.db.update(businesses).set({ towncity: "Nergens" }).where(eq(businesses.id, lockedId)),
      ]).catch((e: unknown) => e);
      expect((failure as { code?: string }).code).toBe("PROTOCOL_SEQUENCE_TIMEOUT");
      // the server is still running the abandoned text: its insert done, its update waiting on the lock
      for (let i = 0; i < 200 && (await lockWaits()) === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await lockWaits()).toBe(1);
    } finally {
      await locker.query("COMMIT");
      locker.release();
      await impatient.close();
    }
    // The abandoned text now runs to its end. Inserting the same owner_code waits until its
    // transaction ends: a COMMIT queued in that text would write "Zombie" (ER_DUP_ENTRY here).
    await writeInOneTransaction(core.db, [business("Daarna", "ZOMBIE-1")]);
    expect(await names()).not.toContain("Zombie");
    const [locked] = await core.db.select().from(businesses).where(eq(businesses.id, lockedId));
    expect(locked!.towncity).toBeNull();
  });

  it("splits a long text into several round trips of the same transaction, all or nothing", async () => {
    core.statements.reset();
    const many = Array.from({ length: 6 }, (_, i) => business(`Deel ${i}`, `DEEL-${i}`));
    expect(await writeInOneTransaction(core.db, many, { maxTextBytes: 300 })).toHaveLength(6);
    expect(core.statements.count).toBeGreaterThan(2);
    expect((await names()).filter((n) => n.startsWith("Deel"))).toHaveLength(6);

    const failing = [...Array.from({ length: 4 }, (_, i) => business(`Half ${i}`, `HALF-${i}`)), business("Botsing", "DEEL-0")];
    const failure = await writeInOneTransaction(core.db, failing, { maxTextBytes: 300 }).catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe("ER_DUP_ENTRY");
    expect((await names()).filter((n) => n.startsWith("Half"))).toEqual([]);
  });
});

describe("insertRows", () => {
  it("writes the columns any row gives, DEFAULT where a row gives none, values encoded and escaped", () => {
    const at = new Date("2026-11-21T10:00:00Z");
    const text = statementText(insertRows(businesses, [
      { chainId: 1, name: "O'Brien", createdDate: at, isShutDown: true },
      { chainId: 1, name: "Plain", ownerCode: null, latitude: 52.5 },
    ]));
    expect(text).toBe(
      "insert into `businesses` (`chain_id`, `name`, `owner_code`, `latitude`, `is_shut_down`, `created_date`) values " +
        "(1, 'O\\'Brien', default, default, true, '2026-11-21 10:00:00.000'), (1, 'Plain', NULL, 52.5, default, default)",
    );
  });

  it("adds on a duplicate key when asked, renders sql expressions, and refuses keys that are no column", async () => {
    expect(statementText(insertRows(businesses, [{ chainId: 1, name: "x", deletedBy: sql`LAST_INSERT_ID() + ${2}` }], { addOnDuplicateKey: "deletedBy" })))
      .toBe("insert into `businesses` (`chain_id`, `name`, `deleted_by`) values (1, 'x', LAST_INSERT_ID() + 2) on duplicate key update `deleted_by` = `deleted_by` + VALUES(`deleted_by`)");
    expect(() => insertRows(businesses, [{ chainId: 1, nme: "typo" }])).toThrow(/nme is no column of businesses/);
    expect(() => insertRows(businesses, [{ chainId: 1 }], { addOnDuplicateKey: "count" })).toThrow(/count is no column/);
  });
});

