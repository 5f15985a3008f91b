/**
 * batchedRecorder (synced-batches.ts) on a real database: many customers in one batch, each with
 * recordSynced's outcome (new rows, the compare-and-set on last_hash row by row, superseded rows
 * keeping the newer last_hash), a member linked to another customer failing that customer alone,
 * a row that vanished or appeared since it was read, and a database error failing the batch.
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { countStatements, type StatementCounter } from "../../../test/helpers/statements.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { serviceCustomerData } from "../db/schema.ts";
import { MemberLinkedElsewhereError, recordSynced, type SyncedCustomer } from "./sync-state.ts";
import { batchedRecorder } from "./synced-batches.ts";

let dbName = "";
let database: ConnectorDatabase;
let counter: StatementCounter;

beforeAll(async () => {
  dbName = throwawayDatabaseName("syncbatch");
  await createMigratedDatabase("connector", dbName);
  database = openConnectorDatabase(TEST_DATABASE_URL, dbName);
  counter = countStatements(database.pool);
});

afterAll(async () => {
  await database?.close();
  await dropDatabase(dbName);
});

const NOW = new Date("2026-05-01T12:00:00Z");
const LATER = new Date("2026-05-01T12:05:00Z");
const MODIFIED = new Date("2026-05-01T11:59:00Z");
const hash = (c: string) => c.repeat(64);

const synced = (customerId: number, over: Partial<SyncedCustomer> = {}): SyncedCustomer => ({
  customerId, chainId: 1, expectedLastHash: null, lastHash: hash("a"), userId: 1000 + customerId, memberNumber: String(5000 + customerId),
  platformModifiedAt: MODIFIED, now: NOW, ...over,
});

async function row(customerId: number) {
  const [r] = await database.db.select().from(serviceCustomerData).where(eq(serviceCustomerData.customerId, customerId));
  return r ?? null;
}

/** Records `items` with a recorder that writes them as one batch (they are all queued before its first write). */
async function recordAll(items: SyncedCustomer[]): Promise<Array<PromiseSettledResult<void>>> {
  const record = batchedRecorder(database.db, { maxBatch: items.length, lingerMs: 1000 });
  return Promise.allSettled(items.map((s) => record(s)));
}

describe("batchedRecorder", () => {
  it("customers never synced: one INSERT for the batch, each row as recordSynced stores it", async () => {
    const ids = [101, 102, 103];
    counter.reset();
    const results = await recordAll(ids.map((id) => synced(id, { memberNumber: id === 103 ? null : String(5000 + id) })));
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(counter.statements.filter((s) => /service_customer_data/.test(s))).toHaveLength(1);
    expect(await row(101)).toMatchObject({ serviceChainId: 1, userId: 1101, memberNumber: "5101", lastHash: hash("a"), platformModifiedAt: MODIFIED, updatedAt: NOW });
    expect(await row(103)).toMatchObject({ userId: 1103, memberNumber: null, lastHash: hash("a") });
  });

  it("customers synced before: one UPDATE; last_hash replaced where it is as read, only the identifiers where it moved on", async () => {
    const ids = [111, 112, 113, 114];
    await recordAll(ids.map((id) => synced(id)));
    // The platform's update came in for 112 while its call was under way: a newer last_hash.
    const moved = new Date("2026-05-01T12:01:00Z");
    await database.db.update(serviceCustomerData).set({ lastHash: hash("u"), platformModifiedAt: moved }).where(eq(serviceCustomerData.customerId, 112));
    counter.reset();
    const results = await recordAll(ids.map((id) => synced(id, {
      expectedLastHash: hash("a"), lastHash: hash("b"), platformModifiedAt: LATER, now: LATER, memberNumber: id === 114 ? null : String(7000 + id),
    })));
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(counter.statements.filter((s) => /service_customer_data/.test(s))).toHaveLength(1);
    expect(await row(111)).toMatchObject({ lastHash: hash("b"), platformModifiedAt: LATER, memberNumber: "7111", updatedAt: LATER });
    expect(await row(112)).toMatchObject({ lastHash: hash("u"), platformModifiedAt: moved, memberNumber: "7112", updatedAt: LATER });
    expect(await row(113)).toMatchObject({ lastHash: hash("b"), platformModifiedAt: LATER, memberNumber: "7113" });
    // no member number from the platform: the known one is kept
    expect(await row(114)).toMatchObject({ lastHash: hash("b"), memberNumber: "5114" });
  });

  it("new and known customers in one batch, with a null platform_modified_at", async () => {
    await recordAll([synced(121)]);
    const results = await recordAll([
      synced(121, { expectedLastHash: hash("a"), lastHash: hash("c"), platformModifiedAt: null }),
      synced(122, { lastHash: hash("d"), platformModifiedAt: null }),
    ]);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(await row(121)).toMatchObject({ lastHash: hash("c"), platformModifiedAt: null });
    expect(await row(122)).toMatchObject({ lastHash: hash("d"), platformModifiedAt: null });
  });

  it("a member linked to another customer fails that customer alone; the batch's others are stored", async () => {
    await recordAll([synced(131), synced(132)]);
    const results = await recordAll([
      synced(133), synced(134, { userId: 1131 }), synced(135),
      synced(132, { expectedLastHash: hash("a"), lastHash: hash("e"), memberNumber: "5131" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "rejected"]);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(MemberLinkedElsewhereError);
    expect((results[3] as PromiseRejectedResult).reason).toBeInstanceOf(MemberLinkedElsewhereError);
    expect(await row(134)).toBeNull();
    expect(await row(133)).toMatchObject({ lastHash: hash("a") });
    expect(await row(135)).toMatchObject({ lastHash: hash("a") });
    expect(await row(132)).toMatchObject({ lastHash: hash("a"), memberNumber: "5132" });
  });

  it("a row that vanished since it was read is inserted again; one that appeared is compared as recordSynced does", async () => {
    await recordAll([synced(141), synced(142)]);
    await database.db.delete(serviceCustomerData).where(eq(serviceCustomerData.customerId, 142));
    // 143 was read as never synced, but the platform's update has given it a row since.
    await database.db.insert(serviceCustomerData).values({ customerId: 143, serviceChainId: 1, lastHash: hash("u"), updatedAt: NOW });
    const results = await recordAll([
      synced(141, { expectedLastHash: hash("a"), lastHash: hash("f") }),
      synced(142, { expectedLastHash: hash("a"), lastHash: hash("f") }),
      synced(143, { lastHash: hash("f") }), synced(144, { lastHash: hash("f") }),
    ]);
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    expect(await row(141)).toMatchObject({ lastHash: hash("f"), userId: 1141 });
    expect(await row(142)).toMatchObject({ lastHash: hash("f"), userId: 1142 });
    expect(await row(143)).toMatchObject({ lastHash: hash("u"), userId: 1143 });
    expect(await row(144)).toMatchObject({ lastHash: hash("f") });
  });

  it("a batch that does not fill up is written once its first customer has waited", async () => {
    const record = batchedRecorder(database.db, { maxBatch: 50, lingerMs: 5 });
    await Promise.all([151, 152].map((id) => record(synced(id))));
    const rows = await database.db.select().from(serviceCustomerData).where(inArray(serviceCustomerData.customerId, [151, 152]));
    expect(rows).toHaveLength(2);
  });

  it("more customers than a batch holds: written in several batches, every one stored", async () => {
    const record = batchedRecorder(database.db, { maxBatch: 3, lingerMs: 5 });
    const ids = Array.from({ length: 10 }, (_, i) => 161 + i);
    counter.reset();
    await Promise.all(ids.map((id) => record(synced(id))));
    expect(counter.statements.filter((s) => /service_customer_data/.test(s))).toHaveLength(4);
    const rows = await database.db.select().from(serviceCustomerData).where(inArray(serviceCustomerData.customerId, ids));
    expect(rows).toHaveLength(10);
  });

  it("recordBatch 1: each customer on its own (recordSynced)", async () => {
    const record = batchedRecorder(database.db, { maxBatch: 1 });
    await record(synced(181));
    expect(await row(181)).toMatchObject({ lastHash: hash("a") });
    expect(await recordSynced(database.db, synced(181, { expectedLastHash: hash("a"), lastHash: hash("g") }))).toBe("stored");
  });

  it("the database failing the batch statement fails every customer of the batch with its error", async () => {
    const broken = openConnectorDatabase(TEST_DATABASE_URL, dbName);
    await broken.close();
    const record = batchedRecorder(broken.db, { maxBatch: 2, lingerMs: 1000 });
    const results = await Promise.allSettled([record(synced(191)), record(synced(192))]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(await row(191)).toBeNull();
  });
});
