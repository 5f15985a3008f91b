import { defineResource, field, reference } from "@service/shared/resources/meta";
import { boolean, datetime, int, mysqlTable, text, varchar } from "drizzle-orm/mysql-core";
import { drizzle } from "drizzle-orm/mysql2";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { addedByRecordBuilder, resourceColumns } from "./resource-columns.ts";

const shops = mysqlTable("shops", {
  id: int("id").primaryKey(),
  chainId: int("chain_id").notNull(),
  name: varchar("name", { length: 64 }).notNull(),
  isOpen: boolean("is_open").notNull(),
  tags: text("tags"),
  lastUpdatedBy: int("last_updated_by"),
  opensAt: datetime("opens_at", { mode: "date" }),
});

const fields = {
  id: field(z.int(), { level: 0, readOnly: true, filter: true, sort: true }),
  chain: field(reference(), { level: 1, reference: "chain", filter: true }),
  name: field(z.string(), { level: 1, filter: true, sort: true }),
  is_open: field(z.boolean(), { level: 1, filter: true }),
  tags: field(z.array(z.string()).nullable(), { level: 2 }),
  last_updated_by: field(reference().nullable(), { level: 2, readOnly: true, reference: "admin_user" }),
  opens_at: field(z.string().meta({ format: "date-time" }).nullable(), { level: 2 }),
};
const shop = defineResource({ name: "shop", plural: "shops", fields: z.object(fields) });
const map = resourceColumns(shop, shops);
const row = { id: 7, chainId: 3, name: "Dam", isOpen: true, tags: '["a","b"]', lastUpdatedBy: null, opensAt: new Date("2026-01-02T03:04:05Z") };

/** Renders a select ordered and filtered by the map, without a database. */
const sqlOf = (q: Parameters<typeof map.orderBy>[0], filters: Record<string, string | number | boolean> = {}) =>
  drizzle.mock()
    .select()
    .from(shops)
    .where(map.conditions(filters)[0])
    .orderBy(...map.orderBy(q))
    .toSQL();

describe("resourceColumns", () => {
  it("maps plain columns by name, references to <name>Id or the *_by column, arrays to JSON text", () => {
    expect(map.toRecord(row)).toEqual({
      id: 7,
      chain: { id: 3 },
      name: "Dam",
      is_open: true,
      tags: ["a", "b"],
      last_updated_by: null,
      opens_at: row.opensAt,
    });
  });

  it("writes references as ids, arrays as JSON text and date-time texts as whole-second Dates", () => {
    expect(map.toColumns({ chain: { id: 4 }, name: "X", tags: ["c"], last_updated_by: { id: 9 }, opens_at: "2026-01-02 03:04:05" })).toEqual({
      chainId: 4,
      name: "X",
      tags: '["c"]',
      lastUpdatedBy: 9,
      opensAt: new Date("2026-01-02T03:04:05Z"),
    });
    expect(map.toColumns({ opens_at: "2026-01-02T03:04:05.999Z" })).toEqual({ opensAt: new Date("2026-01-02T03:04:05Z") });
  });

  it("filters by equality and orders by the sort key, then by id in the same direction", () => {
    const sorted = sqlOf({ sort: { property: "name", order: "desc" }, order: "asc" }, { chain: 3 });
    expect(sorted.sql).toMatch(/where `shops`.`chain_id` = \? order by `shops`.`name` desc, `shops`.`id` desc$/);
    expect(sorted.params).toEqual([3]);
    expect(sqlOf({ order: "desc" }).sql).toMatch(/order by `shops`.`id` desc$/);
  });

  it("lets an exception replace parts of a property's storage", () => {
    const upper = resourceColumns(shop, shops, { exceptions: { name: { read: (r) => r.name.toUpperCase() } } });
    expect(upper.toRecord(row).name).toBe("DAM");
    expect(upper.toColumns({ name: "y" })).toEqual({ name: "y" });
  });

  it("refuses to build a map that leaves a property, filter or sort key unserved, naming it", () => {
    const extra = defineResource({ name: "shop", plural: "shops", fields: z.object({ ...fields, colour: field(z.string(), { level: 1 }) }) });
    expect(() => resourceColumns(extra, shops)).toThrow("shop.colour: no usable column colour in shops and no exception declared for it");
    expect(resourceColumns(extra, shops, { exceptions: { colour: addedByRecordBuilder("computed") } }).toRecord(row)).not.toHaveProperty("colour");

    const filterOnJson = defineResource({ name: "shop", plural: "shops", fields: z.object({ ...fields, tags: field(z.array(z.string()), { level: 2, filter: true }) }) });
    expect(() => resourceColumns(filterOnJson, shops)).toThrow("shop.tags: declared as a filter (F) but shops has no column to filter on");

    const sortComputed = defineResource({ name: "shop", plural: "shops", fields: z.object({ ...fields, rank: field(z.int(), { level: 1, sort: true }) }) });
    expect(() => resourceColumns(sortComputed, shops, { exceptions: { rank: addedByRecordBuilder("computed") } })).toThrow(
      "shop.rank: declared as a sort key (S) but shops has no column to sort by",
    );

    expect(() => resourceColumns(shop, shops, { exceptions: { nickname: { note: "stale" } } })).toThrow(
      "shop.nickname: an exception is declared for a property the resource does not declare",
    );

    const jsonInVarchar = defineResource({ name: "shop", plural: "shops", fields: z.object({ ...fields, name: field(z.array(z.string()), { level: 1 }) }) });
    expect(() => resourceColumns(jsonInVarchar, shops)).toThrow("shop.name: no usable column name in shops");
  });
});
