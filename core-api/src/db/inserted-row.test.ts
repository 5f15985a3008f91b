import { sql } from "drizzle-orm";
import { datetime, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { describe, expect, it } from "vitest";
import { rowAsInserted } from "./inserted-row.ts";

const t = mysqlTable("t", {
  id: int("id").autoincrement().primaryKey(),
  name: varchar("name", { length: 10 }).notNull(),
  kind: varchar("kind", { length: 10 }).notNull().default("plain"),
  note: varchar("note", { length: 10 }),
  at: datetime("at", { mode: "date" }),
  stamped: datetime("stamped", { mode: "date" }).notNull().default(sql`CURRENT_TIMESTAMP`),
  upper: varchar("upper", { length: 10 }).generatedAlwaysAs(sql`UPPER(name)`),
});

describe("rowAsInserted", () => {
  const at = new Date("2026-11-21T10:00:01Z");
  it("takes the given values, the declared defaults, NULL, and what the caller computed", () => {
    expect(rowAsInserted(t, { name: "a", at, stamped: at }, { id: 7, upper: "A" })).toEqual({
      id: 7, name: "a", kind: "plain", note: null, at, stamped: at, upper: "A",
    });
  });
  it("refuses to guess what the database computes, and a Date the column would not keep", () => {
    expect(() => rowAsInserted(t, { name: "a", stamped: at }, { upper: "A" })).toThrow(/id: computed/);
    expect(() => rowAsInserted(t, { name: "a", stamped: at }, { id: 1 })).toThrow(/upper: computed/);
    expect(() => rowAsInserted(t, { name: "a" }, { id: 1, upper: "A" })).toThrow(/stamped: its default/);
    expect(() => rowAsInserted(t, { name: "a", stamped: new Date("2026-11-21T10:00:01.500Z") }, { id: 1, upper: "A" })).toThrow(/milliseconds/);
  });
});
