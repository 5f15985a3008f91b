/**
 * Records of accepted customers stored together (sync-state.ts recordSyncedTogether) and grouped
 * (record-groups.ts), on a real database: a group stored in one UPDATE as recordSynced stores each,
 * a group that cannot be (a last_hash moved on, a member of another customer) writing nothing, and
 * the grouper giving every caller its own answer after its group: stored, superseded, or its error.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { countStatements, type StatementCounter } from "../../../test/helpers/statements.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { serviceCustomerData } from "../db/schema.ts";
import { recordInGroups } from "./record-groups.ts";
import { MemberLinkedElsewhereError, recordSynced, recordSyncedTogether, type SyncedCustomer } from "./sync-state.ts";

let dbName = "";
let database: ConnectorDatabase;
let statements: StatementCounter;

beforeAll(async () => {
  dbName = throwawayDatabaseName("recordgroups");
  await createMigratedDatabase("connector", dbName);
  database = openConnectorDatabase(TEST_DATABASE_URL, dbName);
  statements = countStatements(database.pool);
});

afterAll(async () => {
  await database?.close();
  await dropDatabase(dbName);
});

const NOW = new Date("2026-05-01T12:00:00Z");
const LATER = new Date("2026-05-01T12:05:00Z");
const MODIFIED = new Date("2026-05-01T11:59:00Z");
const hash = (c: string) => c.repeat(64);

/** Customer `id` synced before with last_hash "a" (user 1000 + id, member number 5000 + id); its next record. */
async function syncedBefore(id: number, over: Partial<SyncedCustomer> = {}): Promise<SyncedCustomer> {
  await recordSynced(database.db, { customerId: id, chainId: 1, expectedLastHash: null, lastHash: hash("a"), userId: 1000 + id, memberNumber: String(5000 + id), platformModifiedAt: null, now: NOW });
  return { customerId: id, chainId: 1, expectedLastHash: hash("a"), lastHash: hash("b"), userId: 1000 + id, memberNumber: String(7000 + id), platformModifiedAt: MODIFIED, now: LATER, ...over };
}

async function rows(ids: number[]) {
  return database.db.select().from(serviceCustomerData).where(inArray(serviceCustomerData.customerId, ids)).orderBy(serviceCustomerData.customerId);
}

describe("recordSyncedTogether", () => {
  it("stores a group synced before in one UPDATE of one transaction, each as recordSynced would (no member number: the known one kept)", async () => {
    const group = [await syncedBefore(1), await syncedBefore(2, { memberNumber: null }), await syncedBefore(3, { platformModifiedAt: null })];
    statements.reset();
    expect(await recordSyncedTogether(database.db, group)).toBe(true);
    expect(statements.statements.filter((s) => /^update/i.test(s))).toHaveLength(1);
    expect(statements.count).toBeLessThanOrEqual(4);
    expect(await rows([1, 2, 3])).toMatchObject([
      { customerId: 1, lastHash: hash("b"), userId: 1001, memberNumber: "7001", platformModifiedAt: MODIFIED, updatedAt: LATER },
      { customerId: 2, lastHash: hash("b"), userId: 1002, memberNumber: "5002", platformModifiedAt: MODIFIED, updatedAt: LATER },
      { customerId: 3, lastHash: hash("b"), userId: 1003, memberNumber: "7003", platformModifiedAt: null, updatedAt: LATER },
    ]);
  });

  it("a last_hash that moved on, or a member number of another customer: false, nothing written", async () => {
    const moved = [await syncedBefore(11), await syncedBefore(12)];
    await database.db.update(serviceCustomerData).set({ lastHash: hash("u") }).where(eq(serviceCustomerData.customerId, 12));
    const clash = [await syncedBefore(13), await syncedBefore(14, { memberNumber: "5011" })];
    const before = await rows([11, 12, 13, 14]);
    expect(await recordSyncedTogether(database.db, moved)).toBe(false);
    expect(await recordSyncedTogether(database.db, clash)).toBe(false);
    expect(await rows([11, 12, 13, 14])).toEqual(before);
  });
});

describe("recordInGroups", () => {
  it("a full group is stored together and each caller hears stored", async () => {
    const group = [await syncedBefore(21), await syncedBefore(22), await syncedBefore(23)];
    const records = recordInGroups(database.db, { size: 3, waitMs: 60_000 });
    statements.reset();
    expect(await Promise.all(group.map((r) => records.record(r)))).toEqual(["stored", "stored", "stored"]);
    expect(statements.statements.filter((s) => /^update/i.test(s))).toHaveLength(1);
    expect((await rows([21, 22, 23])).map((r) => r.lastHash)).toEqual([hash("b"), hash("b"), hash("b")]);
  });

  it("a group that cannot be stored together: each record alone, with its own answer or error", async () => {
    const fine = await syncedBefore(31);
    const moved = await syncedBefore(32);
    await database.db.update(serviceCustomerData).set({ lastHash: hash("u") }).where(eq(serviceCustomerData.customerId, 32));
    // Customer 34, outside the group, keeps member number 5034 whatever the group writes.
    await syncedBefore(34);
    const clash = await syncedBefore(33, { memberNumber: "5034" });
    const records = recordInGroups(database.db, { size: 10, waitMs: 20 });
    const answers = await Promise.allSettled([fine, moved, clash].map((r) => records.record(r)));
    expect(answers.map((a) => (a.status === "fulfilled" ? a.value : (a.reason as Error).name))).toEqual(["stored", "superseded", MemberLinkedElsewhereError.name]);
    expect(await rows([31, 32, 33])).toMatchObject([
      { lastHash: hash("b"), memberNumber: "7031" },
      { lastHash: hash("u"), memberNumber: "7032" },
      { lastHash: hash("a"), memberNumber: "5033" },
    ]);
  });

  it("a customer never synced is stored at once, alone", async () => {
    const records = recordInGroups(database.db, { size: 10, waitMs: 60_000 });
    const record: SyncedCustomer = { customerId: 41, chainId: 1, expectedLastHash: null, lastHash: hash("n"), userId: 1041, memberNumber: null, platformModifiedAt: null, now: NOW };
    expect(await records.record(record)).toBe("stored");
    expect((await rows([41]))[0]).toMatchObject({ lastHash: hash("n"), userId: 1041 });
  });
});
