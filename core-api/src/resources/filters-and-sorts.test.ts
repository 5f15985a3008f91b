/**
 * Generated from the declarations: for every resource the engine lists and every declared filter
 * (F) and sort (S) key, rows written straight to the database (list-seeds.test-support.ts) come
 * back filtered and ordered as this file computes from the values it stored. A new F or S
 * property in a shared declaration becomes a case here by itself; the last test checks that the
 * file runs one case per declared key, so the loops can never pass by running nothing.
 */
import type { ResourceDeclaration } from "@service/shared/resources/meta";
import { RESOURCES } from "@service/shared/resources/resource-registry";
import { afterAll, beforeAll, describe, expect, it, type RunnerTask } from "vitest";
import { SEEDERS, type SeededResource, type SeededRow } from "./list-seeds.test-support.ts";
import { ADAPTERS } from "./resource-routes.ts";
import { startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";

/** Fewer declared F and S keys than this means keys were lost (47 when this test was written). */
const MIN_CASES = 40;

const LISTED = ADAPTERS.filter((a) => a.list).map((a) => a.declaration);
const keysOf = (decl: ResourceDeclaration, kind: "filter" | "sort") => [...decl.properties.values()].filter((p) => p[kind]).map((p) => p.name);
const CASES = LISTED.flatMap((decl) => [
  ...keysOf(decl, "filter").map((key) => ({ decl, key, kind: "filter" as const })),
  ...keysOf(decl, "sort").map((key) => ({ decl, key, kind: "sort" as const })),
]);
/** Counted over every declared resource, listed or not: a key of a resource without a list is a case that cannot run. */
const DECLARED_KEYS = [...RESOURCES.values()].reduce((n, decl) => n + keysOf(decl, "filter").length + keysOf(decl, "sort").length, 0);

let w: ResourcesWorld;
const seeded = new Map<string, SeededResource>();

beforeAll(async () => {
  w = await startResourcesWorld();
  const otherChain = await w.core.createChain("Other Chain");
  for (const decl of LISTED) {
    const seed = SEEDERS[decl.name];
    if (!seed) throw new Error(`no seeder for ${decl.name} in list-seeds.test-support.ts`);
    seeded.set(decl.name, await seed(w, otherChain));
  }
});
afterAll(() => w.core.close());

/** A stated value in a form that compares (and sorts) like the database: instants, booleans as 0/1, references by id. */
function comparable(value: unknown): string | number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "boolean") return Number(value);
  if (value !== null && typeof value === "object") return (value as { id: number | string }).id;
  return value as string | number;
}

/** A stated value as a filter parameter (a reference filters by its id). */
function asParameter(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === "object") return String((value as { id: number | string }).id);
  return String(value);
}

/** A stated value as a response renders it (datetimes RFC 3339 in whole seconds; a nested resource by its id). */
function asRendered(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (value !== null && typeof value === "object") return { id: (value as { id: unknown }).id };
  return value;
}

const ascending = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
const sortedIds = (ids: Array<number | string>) => [...ids].map(String).sort();

async function list(decl: ResourceDeclaration, query: string): Promise<{ ids: Array<number | string>; total: number }> {
  const res = await w.call("GET", `${decl.pluralPath}?limit=500&${query}`, undefined, { "X-Service-Response-Recursion-Level": "0" });
  expect({ query, status: res.status }).toEqual({ query, status: 200 });
  return { ids: res.body.results.resources.map((r: { id: number | string }) => r.id), total: res.body.results.total_count };
}

function stated(name: string, key: string): SeededResource {
  const seed = seeded.get(name)!;
  const missing = seed.rows.filter((r) => r.values[key] === undefined).map((r) => r.id);
  expect(missing, `the ${name} seeds state no ${key} for these rows: add it in list-seeds.test-support.ts`).toEqual([]);
  return seed;
}

describe.each(LISTED.map((decl) => [decl.name, decl] as const))("%s", (name, decl) => {
  it("renders every seeded row with the values stored for it", async () => {
    const res = await w.call("GET", `${decl.pluralPath}?limit=500`, undefined, { "X-Service-Response-Recursion-Level": "4" });
    const { rows } = seeded.get(name)!;
    expect(sortedIds(res.body.results.resources.map((r: { id: number | string }) => r.id))).toEqual(sortedIds(rows.map((r) => r.id)));
    for (const row of rows) {
      const rendered = res.body.results.resources.find((r: { id: unknown }) => r.id === row.id);
      for (const [prop, value] of Object.entries(row.values)) {
        const got = rendered[prop] !== null && typeof rendered[prop] === "object" ? { id: rendered[prop].id } : rendered[prop];
        expect({ id: row.id, prop, value: got }).toEqual({ id: row.id, prop, value: asRendered(value) });
      }
    }
  });

  for (const key of keysOf(decl, "filter")) {
    it(`filter ${key}: exactly the rows whose stored ${key} equals the value`, async () => {
      const { rows, hidden } = stated(name, key);
      const values = [...rows, ...hidden].map((r: SeededRow) => r.values[key]).filter((v) => v !== null && v !== undefined);
      const tried = [...new Map(values.map((v) => [comparable(v), v])).values()];
      let narrowing = 0;
      for (const value of tried) {
        const expected = rows.filter((r) => r.values[key] !== null && comparable(r.values[key]) === comparable(value)).map((r) => r.id);
        const got = await list(decl, `${key}=${encodeURIComponent(asParameter(value))}`);
        expect({ value: asParameter(value), ids: sortedIds(got.ids), total: got.total }).toEqual({
          value: asParameter(value),
          ids: sortedIds(expected),
          total: expected.length,
        });
        if (expected.length < rows.length) narrowing++;
      }
      expect(narrowing, `no stored ${key} value narrows the list: vary it in the ${name} seeds`).toBeGreaterThan(0);
    });
  }

  for (const key of keysOf(decl, "sort")) {
    it(`sort_by ${key}: every row, ordered by the stored ${key}, both directions`, async () => {
      const { rows } = stated(name, key);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const values = rows.map((r) => r.values[key]);
      expect(values.filter((v) => v === null), `the ${name} seeds must give every row a ${key} to sort by`).toEqual([]);
      expect(new Set(values.map(comparable)).size, `vary ${key} in the ${name} seeds`).toBeGreaterThan(1);
      for (const order of ["asc", "desc"] as const) {
        const got = await list(decl, `sort_by=${key}&sort_order=${order}`);
        expect(sortedIds(got.ids)).toEqual(sortedIds(rows.map((r) => r.id)));
        const expected = values.map(comparable).sort(ascending);
        if (order === "desc") expected.reverse();
        expect({ order, sequence: got.ids.map((id) => comparable(byId.get(id)!.values[key])) }).toEqual({ order, sequence: expected });
      }
    });
  }
});

/** The filter and sort cases this file will run, as "<resource> <filter|sort> <key>", from its collected (not skipped) tests. */
function casesToRun(tasks: readonly RunnerTask[], suite = ""): string[] {
  return tasks.flatMap((t) => {
    if (t.type === "suite") return casesToRun(t.tasks, t.name);
    const match = /^(filter|sort_by) (\S+):/.exec(t.name);
    return match && (t.mode === "run" || t.mode === "only") ? [`${suite} ${match[1] === "sort_by" ? "sort" : "filter"} ${match[2]}`] : [];
  });
}

describe("coverage", () => {
  // Read from the collected tests rather than recorded as they finish, so it holds in any run order.
  it("runs one case per declared filter and sort key of every resource", ({ task }) => {
    expect(DECLARED_KEYS).toBeGreaterThanOrEqual(MIN_CASES);
    expect(CASES).toHaveLength(DECLARED_KEYS);
    expect(casesToRun(task.file.tasks).sort()).toEqual(CASES.map((c) => `${c.decl.name} ${c.kind} ${c.key}`).sort());
  });
});
