/**
 * The Bad input walker: every resource in ADAPTERS is walked through bad input generated from its
 * shared declaration (nothing here names a property): unknown properties, properties a method
 * does not accept (read-only, immutable on PUT/PATCH, outside ops), values of the wrong type,
 * strings over their maximum, missing req-post properties, and bad list parameters. Each case
 * asserts the error code, name and HTTP status, that the database is unchanged (a checksum of
 * every table), and for PUT/PATCH that the target reads the same as before.
 */
import { ERRORS, type ErrorName } from "@service/shared";
import type { PropertyInfo, ResourceDeclaration } from "@service/shared/resources/meta";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceAdapter } from "./engine.ts";
import { ADAPTERS } from "./routes.ts";
import { bodySchema, propertySchema } from "./schema-components.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./test-support.ts";
import { databaseFingerprint, overlongValue, sampleValue, wrongTypeValues } from "./test-values.ts";
import { validPostBody, WRITE_WALK_SKIPPED } from "./valid-bodies.ts";
import { refusalOf, requiredProperties, writableProperties, type WriteMethod } from "./write.ts";

let w: ResourcesWorld;
beforeAll(async () => {
  w = await startResourcesWorld();
});
afterAll(() => w.core.close());

interface Case {
  label: string;
  method: string;
  path: string;
  body?: unknown;
  expected: ErrorName;
}

/** Runs `cases`; returns one line per case that did not fail exactly as expected or wrote something. */
async function walk(cases: Case[], target?: string): Promise<string[]> {
  const problems: string[] = [];
  const read = async () => (target ? JSON.stringify((await w.call("GET", target, undefined, { "X-Service-Response-Recursion-Level": "4" })).body) : "");
  for (const c of cases) {
    const [before, targetBefore] = [await databaseFingerprint(w.core.db, w.core.dbName), await read()];
    const res = await w.call(c.method, c.path, c.body);
    const want = { status: ERRORS[c.expected].status, code: ERRORS[c.expected].code, name: c.expected };
    const got = errorOf(res);
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${c.label}: expected ${c.expected}, got ${res.status} ${JSON.stringify(res.body)}`);
    if ((await databaseFingerprint(w.core.db, w.core.dbName)) !== before) problems.push(`${c.label}: the database changed`);
    if (target && (await read()) !== targetBefore) problems.push(`${c.label}: the target changed`);
  }
  return problems;
}

const input = (p: PropertyInfo) => propertySchema(p, "input");

/** A value for a property the method refuses: any value will do (refusal comes first), but an `id` must not be the target's own (which is tolerated). */
function refusedValue(p: PropertyInfo, targetId: unknown): unknown {
  if (p.name === "id") return typeof targetId === "number" ? targetId + 1_000_000 : "ffffffff-ffff-4fff-bfff-ffffffffffff";
  return sampleValue(input(p), 1) ?? "x";
}

/** The bad-body cases of one write method against `path`, on top of the valid `base` body. */
function writeCases(decl: ResourceDeclaration, method: WriteMethod, httpMethod: string, path: string, base: Record<string, unknown>, targetId?: unknown): Case[] {
  const at = (label: string, body: unknown, expected: ErrorName): Case => ({ label: `${httpMethod} ${decl.name} ${label}`, method: httpMethod, path, body, expected });
  const cases: Case[] = [at("unknown property", { ...base, no_such_property_x: 1 }, "parameter_invalid")];
  for (const p of decl.properties.values()) {
    if (refusalOf(p, method)) cases.push(at(`refused ${p.name}`, { ...base, [p.name]: refusedValue(p, targetId) }, "parameter_invalid"));
  }
  for (const p of writableProperties(decl, method)) {
    for (const bad of wrongTypeValues(input(p))) cases.push(at(`${p.name} = ${JSON.stringify(bad)}`, { ...base, [p.name]: bad }, "parameter_invalid"));
    const long = overlongValue(input(p));
    // Only where the over-long string breaks no rule but the maximum (else 419 is right).
    const onlyTooLong = long !== undefined && p.schema.safeParse(long).error?.issues.every((i) => i.code === "too_big");
    if (onlyTooLong) cases.push(at(`${p.name} over its maximum`, { ...base, [p.name]: long }, "string_parameter_too_long"));
  }
  for (const p of requiredProperties(decl, method)) {
    const { [p.name]: _left, ...rest } = base;
    cases.push(at(`without ${p.name}`, rest, "parameter_missing"));
  }
  return cases;
}

/** The instance a PUT/PATCH walk targets and the POST body it was made with (empty for an implied target). */
async function makeTarget(adapter: ResourceAdapter): Promise<{ id: unknown; body: Record<string, unknown> }> {
  const decl = adapter.declaration;
  if (adapter.create) {
    const body = await validPostBody(w, decl.name, bodySchema(decl, "post"));
    const res = await w.call("POST", decl.path, body);
    if (res.status !== 200) {
      throw new Error(`cannot create a valid ${decl.name} from ${JSON.stringify(body)}: ${JSON.stringify(res.body)}; add it to PREREQUISITES or WRITE_WALK_SKIPPED (valid-bodies.ts)`);
    }
    return { id: res.body.results.id, body };
  }
  if (adapter.impliedTarget) return { id: (await w.call("GET", decl.path)).body.results.id, body: {} };
  throw new Error(`${decl.name}: no POST and no implied target; list it in WRITE_WALK_SKIPPED`);
}

describe.each(ADAPTERS.map((a) => [a.declaration.name, a] as const))("bad input: %s", (name, adapter) => {
  const decl = adapter.declaration;
  const skipped = name in WRITE_WALK_SKIPPED;

  it.runIf(adapter.create !== undefined && !skipped)("POST refuses every bad body and writes nothing", { timeout: 180_000 }, async () => {
    const base = await validPostBody(w, name, bodySchema(decl, "post"));
    const cases = writeCases(decl, "post", "POST", decl.path, base);
    expect(cases.length).toBeGreaterThan(decl.properties.size);
    expect(await walk(cases)).toEqual([]);
    // The base body itself is accepted: every case failed for its own bad input alone.
    expect(errorOf(await w.call("POST", decl.path, base)).code).toBeUndefined();
  });

  for (const httpMethod of ["PUT", "PATCH"] as const) {
    it.runIf(adapter.update !== undefined && !skipped)(`${httpMethod} refuses every bad body and changes nothing`, { timeout: 180_000 }, async () => {
      const method: WriteMethod = httpMethod === "PUT" && !adapter.putIsPatch ? "put" : "patch";
      const target = await makeTarget(adapter);
      const path = `${decl.path}/${String(target.id)}`;
      // PUT replaces: its base re-sends what the target was created with (per-type rules may need more than req-post).
      const base = method === "put" ? Object.fromEntries(writableProperties(decl, "put").filter((p) => p.name in target.body).map((p) => [p.name, target.body[p.name]])) : {};
      const cases = writeCases(decl, method, httpMethod, path, base, target.id);
      expect(cases.length).toBeGreaterThan(1);
      expect(await walk(cases, path)).toEqual([]);
      expect(errorOf(await w.call(httpMethod, path, base)).code).toBeUndefined();
    });
  }

  it.runIf(adapter.list !== undefined)("the list refuses bad parameters and writes nothing", async () => {
    const props = [...decl.properties.values()];
    const notSortable = props.find((p) => !p.sort);
    const notFilter = props.find((p) => !p.filter && !["limit", "offset"].includes(p.name));
    const queries = ["sort_by=no_such_property", "no_such_filter=1", "limit=0", "limit=501", "limit=abc", "offset=-1", "sort_order=sideways"];
    if (notSortable) queries.push(`sort_by=${notSortable.name}`);
    if (notFilter) queries.push(`${encodeURIComponent(notFilter.name)}=1`);
    const cases = queries.map((q): Case => ({ label: `GET ${decl.pluralPath}?${q}`, method: "GET", path: `${decl.pluralPath}?${q}`, expected: "parameter_invalid" }));
    expect(await walk(cases)).toEqual([]);
  });
});

it("skips write walks only by decision: each skip names a served resource and a reason", () => {
  // A resource not listed is walked, and makeTarget fails the walk when it cannot be given a target.
  const served = ADAPTERS.map((a) => a.declaration.name);
  for (const [name, reason] of Object.entries(WRITE_WALK_SKIPPED)) {
    expect(served).toContain(name);
    expect(reason).toMatch(/\w+ \w+ \w+/);
  }
});
