import { eq, sql } from "drizzle-orm";
import { runTransaction } from "@service/shared/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { businesses } from "./schema.ts";
import { insertRows, runInTransaction, statementText } from "./built-statements.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const NOW = new Date("2026-11-21T10:00:00Z");
const row = (name: string, ownerCode: string | null = null) => ({ chainId: core.chainId, name, ownerCode, createdDate: NOW, lastModifiedDate: NOW });

describe("runInTransaction", () => {
  it("sends one statement per round trip and answers the id an INSERT generated", async () => {
    core.statements.reset();
    const ids = await runTransaction(core.db, async (tx) => [
      (await runInTransaction(tx, insertRows(businesses, [row("Eerste")]))).insertId,
      (await runInTransaction(tx, insertRows(businesses, [row("Tweede")]))).insertId,
    ]);
    // begin, two INSERTs, the marker, commit: never two statements in one text
    expect(core.statements.statements.map((s) => s.split(" ")[0]!.toLowerCase())).toEqual(["begin", "insert", "insert", "insert", "commit"]);
    const stored = await core.db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(eq(businesses.chainId, core.chainId));
    expect(stored.filter((b) => ids.includes(b.id)).map((b) => b.name).sort()).toEqual(["Eerste", "Tweede"]);
  });

  it("writes nothing when a statement fails, and throws the driver's error", async () => {
    await runTransaction(core.db, (tx) => runInTransaction(tx, insertRows(businesses, [row("Bezet", "TAKEN-1")])));
    const failure = await runTransaction(core.db, async (tx) => {
      await runInTransaction(tx, insertRows(businesses, [row("Nooit")]));
      await runInTransaction(tx, insertRows(businesses, [row("Dubbel", "TAKEN-1")]));
    }).catch((e: unknown) => e);
    expect(JSON.stringify({ code: (failure as { cause?: { code?: string } }).cause?.code ?? (failure as { code?: string }).code })).toContain("ER_DUP_ENTRY");
    const names = (await core.db.select({ name: businesses.name }).from(businesses)).map((r) => r.name);
    expect(names).not.toContain("Nooit");
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
    expect(statementText(insertRows(businesses, [{ chainId: 1, name: "x", deletedBy: sql`${2} + 1` }], { addOnDuplicateKey: "deletedBy" })))
      .toBe("insert into `businesses` (`chain_id`, `name`, `deleted_by`) values (1, 'x', 2 + 1) on duplicate key update `deleted_by` = `deleted_by` + VALUES(`deleted_by`)");
    expect(() => insertRows(businesses, [{ chainId: 1, nme: "typo" }])).toThrow(/nme is no column of businesses/);
    expect(() => insertRows(businesses, [{ chainId: 1 }], { addOnDuplicateKey: "count" })).toThrow(/count is no column/);
  });
});

