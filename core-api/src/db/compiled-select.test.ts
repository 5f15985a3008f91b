import { and, eq, sql } from "drizzle-orm";
import { date, int, mysqlTable } from "drizzle-orm/mysql-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { chainHeadSelection } from "../chains/chain-columns.ts";
import { insertBusiness } from "../businesses/business-repository.ts";
import { adminChainPermissions, apps, businesses, chains } from "./schema.ts";
import { compileSelect, qb } from "./compiled-select.ts";

let core: TestCore;
let businessId: number;
let adminId: number;
beforeAll(async () => {
  core = await startCore();
  adminId = (await core.admin({ read: true, super_user: true })).id;
  await core.db.insert(apps).values({ chainId: core.chainId, hostname: "compiled.example", name: "Compiled" });
  businessId = (await insertBusiness(core.db, { chainId: core.chainId, name: "Gecompileerd", ownerCode: "C-1", latitude: 52.123456789, longitude: -4.5, isShutDown: true, openingTimes: '{"monday":null}' }, new Date("2026-11-21T10:00:00Z"))).id;
});
afterAll(() => core.close());

describe("compileSelect reads rows exactly as drizzle does", () => {
  it("a whole table: numbers, doubles, booleans, dates, text, NULLs", async () => {
    const byId = compileSelect(qb.select().from(businesses).where(eq(businesses.id, sql.placeholder("id"))), ["id"]);
    const drizzled = await core.db.select().from(businesses).where(eq(businesses.id, businessId));
    expect(await byId.run(core.db, { id: businessId })).toEqual(drizzled);
    expect(drizzled[0]!.createdDate).toBeInstanceOf(Date);
  });

  it("nested selections, SQL fields with their decoders, and a LEFT JOIN that finds no row read as null", async () => {
    const build = (chainId: unknown, adminId: unknown) =>
      qb
        .select({
          chain: chainHeadSelection,
          doubled: sql<number>`${chains.id} * 2`.mapWith(String),
          permission: adminChainPermissions,
          app: { id: apps.id, hostname: apps.hostname },
        })
        .from(chains)
        .leftJoin(adminChainPermissions, and(eq(adminChainPermissions.chainId, chains.id), eq(adminChainPermissions.adminUserId, adminId as number)))
        .leftJoin(apps, eq(apps.chainId, chains.id))
        .where(eq(chains.id, chainId as number));
    const compiled = compileSelect(build(sql.placeholder("chainId"), sql.placeholder("adminId")), ["chainId", "adminId"]);
    // the admin with a permission on the chain, then an id no admin has
    for (const askedId of [adminId, 999_999]) {
      const got = await compiled.run(core.db, { chainId: core.chainId, adminId: askedId });
      const expected = await core.db
        .select({ chain: chainHeadSelection, doubled: sql<number>`${chains.id} * 2`.mapWith(String), permission: adminChainPermissions, app: { id: apps.id, hostname: apps.hostname } })
        .from(chains)
        .leftJoin(adminChainPermissions, and(eq(adminChainPermissions.chainId, chains.id), eq(adminChainPermissions.adminUserId, askedId)))
        .leftJoin(apps, eq(apps.chainId, chains.id))
        .where(eq(chains.id, core.chainId));
      expect(got).toEqual(expected);
      expect(got[0]!.doubled).toBe(String(core.chainId * 2));
      expect(got[0]!.permission === null).toBe(askedId !== adminId);
    }
  });

  it("refuses placeholders it is not told about, a value left undefined, and a date read as text", async () => {
    const q = qb.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, sql.placeholder("id")));
    expect(() => compileSelect(q, ["id", "other"] as const)).toThrow(/placeholders/);
    expect(() => compileSelect(q, [] as never[])).toThrow(/placeholders/);
    await expect(compileSelect(q, ["id"]).run(core.db, { id: undefined })).rejects.toThrow(/no value for placeholder id/);
    const dated = mysqlTable("dated", { id: int("id"), on: date("on", { mode: "string" }) });
    expect(() => compileSelect(qb.select().from(dated), [])).toThrow(/mode "string"/);
  });
});
