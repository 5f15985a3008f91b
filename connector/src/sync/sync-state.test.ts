/**
 * recordSynced (sync-state.ts) on a real database: the new row, the compare-and-set on last_hash
 * (stored, or superseded keeping the newer last_hash), a member linked to another customer, and
 * writers racing on one customer.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { serviceCustomerData } from "../db/schema.ts";
import { MemberLinkedElsewhereError, recordSynced, type SyncedCustomer } from "./sync-state.ts";

let dbName = "";
let database: ConnectorDatabase;

beforeAll(async () => {
  dbName = throwawayDatabaseName("syncstate");
  await createMigratedDatabase("connector", dbName);
  database = openConnectorDatabase(TEST_DATABASE_URL, dbName);
});

afterAll(async () => {
  await database?.close();
  await dropDatabase(dbName);
});

const NOW = new Date("2026-05-01T12:00:00Z");
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

describe("recordSynced", () => {
  it("a customer never synced gets its row", async () => {
    expect(await recordSynced(database.db, synced(1))).toBe("stored");
    expect(await row(1)).toMatchObject({ serviceChainId: 1, userId: 1001, memberNumber: "5001", lastHash: hash("a"), platformModifiedAt: MODIFIED, updatedAt: NOW });
  });

  it("a customer synced before: last_hash as expected is replaced, with the member's identifiers and version", async () => {
    await recordSynced(database.db, synced(2));
    const later = new Date("2026-05-01T12:05:00Z");
    expect(await recordSynced(database.db, synced(2, { expectedLastHash: hash("a"), lastHash: hash("b"), platformModifiedAt: later, memberNumber: "7002", now: later }))).toBe("stored");
    expect(await row(2)).toMatchObject({ lastHash: hash("b"), memberNumber: "7002", platformModifiedAt: later, updatedAt: later });
  });

  it("last_hash moved on since the customer was read (update came in): only the identifiers are written", async () => {
    await recordSynced(database.db, synced(3));
    await database.db.update(serviceCustomerData).set({ lastHash: hash("u"), platformModifiedAt: new Date("2026-05-01T12:01:00Z") }).where(eq(serviceCustomerData.customerId, 3));
    const later = new Date("2026-05-01T12:05:00Z");
    expect(await recordSynced(database.db, synced(3, { expectedLastHash: hash("a"), lastHash: hash("c"), memberNumber: "7003", now: later }))).toBe("superseded");
    expect(await row(3)).toMatchObject({ lastHash: hash("u"), platformModifiedAt: new Date("2026-05-01T12:01:00Z"), memberNumber: "7003", updatedAt: later });
  });

  it("a row without last_hash counts as never synced; a never-synced send against a synced row is superseded", async () => {
    await database.db.insert(serviceCustomerData).values({ customerId: 4, serviceChainId: 1, updatedAt: NOW });
    expect(await recordSynced(database.db, synced(4))).toBe("stored");
    expect((await row(4))!.lastHash).toBe(hash("a"));
    expect(await recordSynced(database.db, synced(4, { lastHash: hash("d") }))).toBe("superseded");
    expect((await row(4))!.lastHash).toBe(hash("a"));
  });

  it("a member linked to another customer of the chain is MemberLinkedElsewhereError; nothing written", async () => {
    await recordSynced(database.db, synced(5));
    await expect(recordSynced(database.db, synced(6, { userId: 1005, memberNumber: "9006" }))).rejects.toBeInstanceOf(MemberLinkedElsewhereError);
    expect(await row(6)).toBeNull();
    await recordSynced(database.db, synced(7));
    await expect(recordSynced(database.db, synced(7, { expectedLastHash: hash("a"), lastHash: hash("e"), memberNumber: "5005" })))
      .rejects.toBeInstanceOf(MemberLinkedElsewhereError);
    expect(await row(7)).toMatchObject({ lastHash: hash("a"), memberNumber: "5007" });
  });

  it("writers racing on one customer never synced: one stores, the others are superseded, one row", async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => recordSynced(database.db, synced(8, { lastHash: hash(String(i)) }))));
    expect(results.filter((r) => r === "stored")).toHaveLength(1);
    expect(results.filter((r) => r === "superseded")).toHaveLength(9);
    expect((await row(8))!.lastHash).toBe(hash(String(results.indexOf("stored"))));
  });

  it("writers racing with the same expected last_hash: exactly one replaces it", async () => {
    await recordSynced(database.db, synced(9));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => recordSynced(database.db, synced(9, { expectedLastHash: hash("a"), lastHash: hash(String(i)) }))));
    expect(results.filter((r) => r === "stored")).toHaveLength(1);
    expect((await row(9))!.lastHash).toBe(hash(String(results.indexOf("stored"))));
  });
});
