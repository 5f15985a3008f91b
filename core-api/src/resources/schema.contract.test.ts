/**
 * The schema document matches what the service accepts. Every case is generated from the
 * document itself (not from the declarations), for every path it lists:
 * - each property it calls readOnly is refused on POST, PUT and PATCH (419);
 * - each `required` property of a POST body, left out, gives 441;
 * - each string property over its maxLength gives 482;
 * - each filter parameter of a list is accepted, an unlisted parameter is refused (419);
 * - each sort_by enum value is accepted, another is refused (419).
 */
import { ERRORS, type ErrorName } from "@service/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JsonSchema } from "./schema-components.ts";
import { errorOf, startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";
import { overlongValue, sampleValue } from "./test-values.ts";
import { validPostBody } from "./valid-bodies.ts";

let w: ResourcesWorld;
let doc: any;
beforeAll(async () => {
  w = await startResourcesWorld();
  doc = (await w.core.json("/resources/schema")).body;
});
afterAll(() => w.core.close());

const schemaOf = (s: JsonSchema): JsonSchema => {
  const ref = s.$ref as string | undefined;
  return ref ? doc.components.schemas[ref.split("/").pop()!] : s;
};
const bodyOf = (op: any, content = "application/json"): JsonSchema => schemaOf(op.requestBody.content[content].schema);

/** Asserts each call fails with `expected`; returns the calls that did not. */
async function refusedAll(calls: Array<[string, string, unknown?]>, expected: ErrorName): Promise<string[]> {
  const want = { status: ERRORS[expected].status, code: ERRORS[expected].code, name: expected };
  const wrong: string[] = [];
  for (const [method, path, body] of calls) {
    const got = errorOf(await w.call(method, path, body));
    if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(got)}`);
  }
  return wrong;
}

/** The writable resource paths of the document: `/resources/{name}` with a POST and `/{id}` with PUT/PATCH. */
function writePaths(): Array<{ name: string; path: string; post: any; withId: any }> {
  return Object.entries(doc.paths as Record<string, any>)
    .filter(([path, item]) => item.post && doc.paths[`${path}/{id}`])
    .map(([path, item]) => ({ name: item.post.tags[0], path, post: item.post, withId: doc.paths[`${path}/{id}`] }));
}

describe("the schema document matches the service", () => {
  it("lists paths to check", () => {
    expect(writePaths().length).toBeGreaterThan(2);
    expect(Object.values(doc.paths).filter((item: any) => item.get?.operationId?.startsWith("list_")).length).toBeGreaterThan(2);
  });

  it("refuses readOnly properties on POST, PUT and PATCH; requires the required ones; enforces maxLength", { timeout: 120_000 }, async () => {
    const problems: string[] = [];
    for (const { name, path, post, withId } of writePaths()) {
      const postBody = bodyOf(post);
      const resource = doc.components.schemas[name] as JsonSchema;
      const base = await validPostBody(w, name, postBody);
      const readOnly = Object.entries(resource.properties as Record<string, JsonSchema>).filter(([, s]) => s.readOnly === true);
      expect(readOnly.length, name).toBeGreaterThan(0);
      const ro = (p: string, s: JsonSchema, targetId?: unknown) => (p === "id" ? (typeof targetId === "number" ? targetId + 1_000_000 : "ffffffff-ffff-4fff-bfff-ffffffffffff") : sampleValue(s, 1) ?? "x");

      problems.push(...(await refusedAll(readOnly.map(([p, s]) => ["POST", path, { ...base, [p]: ro(p, s) }]), "parameter_invalid")));
      problems.push(...(await refusedAll(((postBody.required ?? []) as string[]).map((p) => { const { [p]: _, ...rest } = base; return ["POST", path, rest]; }), "parameter_missing")));
      const long = Object.entries(postBody.properties as Record<string, JsonSchema>).flatMap(([p, s]) => (overlongValue(s) ? [[p, overlongValue(s)] as const] : []));
      problems.push(...(await refusedAll(long.map(([p, v]) => ["POST", path, { ...base, [p]: v }]), "string_parameter_too_long")));

      const created = await w.call("POST", path, base);
      expect(created.status, `${name}: ${JSON.stringify(created.body)}`).toBe(200);
      const target = `${path}/${created.body.results.id}`;
      for (const method of ["put", "patch"].filter((m) => withId[m])) {
        const accepted = bodyOf(withId[method]);
        // A PUT body re-sends the required properties, so only the bad one is wrong.
        const keep = Object.fromEntries(((accepted.required ?? []) as string[]).map((p) => [p, base[p]]));
        const calls = readOnly.map(([p, s]): [string, string, unknown] => [method.toUpperCase(), target, { ...keep, [p]: ro(p, s, created.body.results.id) }]);
        problems.push(...(await refusedAll(calls, "parameter_invalid")));
        const longs = Object.entries(accepted.properties as Record<string, JsonSchema>).flatMap(([p, s]) => (overlongValue(s) ? [[p, overlongValue(s)] as const] : []));
        problems.push(...(await refusedAll(longs.map(([p, v]) => [method.toUpperCase(), target, { ...keep, [p]: v }]), "string_parameter_too_long")));
      }
    }
    expect(problems).toEqual([]);
  });

  it("accepts every listed filter and sort_by value and refuses others", { timeout: 60_000 }, async () => {
    const problems: string[] = [];
    const madeHere: string[] = [];
    try {
      await checkLists(problems, madeHere);
    } finally {
      for (const target of madeHere) expect((await w.call("DELETE", target)).status, target).toBe(200);
    }
    expect(problems).toEqual([]);
  });
});

/** The filter and sort_by checks of every list path, into `problems`; instances it had to create go into `madeHere`. */
async function checkLists(problems: string[], madeHere: string[]): Promise<void> {
  for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
    const list = item.get;
    if (!list?.operationId?.startsWith("list_")) continue;
    const params = list.parameters.filter((p: any) => p.in === "query");
    const names = new Set(params.map((p: any) => p.name));
    // Filter by values of a real instance: a value's format may be checked beyond what the
    // document can say (a cidr). A writable resource with none yet gets one first.
    const first = async () => (await w.call("GET", `${path}?limit=1`, undefined, { "X-Service-Response-Recursion-Level": "4" })).body.results.resources[0];
    let instance = await first();
    const writable = writePaths().find((p) => p.name === list.tags[0]);
    if (!instance && writable) {
      const created = await w.call("POST", writable.path, await validPostBody(w, writable.name, bodyOf(writable.post)));
      expect(created.status, `${writable.path}: ${JSON.stringify(created.body)}`).toBe(200);
      // deleted again once this list is checked: the other tests' writes must not meet it (a range overlaps)
      madeHere.push(`${writable.path}/${created.body.results.id}`);
      instance = await first();
    }
    for (const f of params.filter((p: any) => p["x-service-filter-property"])) {
      const real = instance?.[f.name.replace(/\[id\]$/, "")];
      const value = real !== undefined && real !== null ? (typeof real === "object" ? real.id : real) : sampleValue(f.schema, 1);
      const res = await w.call("GET", `${path}?${encodeURIComponent(f.name)}=${encodeURIComponent(String(value))}`);
      if (res.status !== 200) problems.push(`${path} filter ${f.name}: ${JSON.stringify(res.body)}`);
    }
    for (const value of params.find((p: any) => p.name === "sort_by")?.schema.enum ?? []) {
      const res = await w.call("GET", `${path}?sort_by=${value}`);
      if (res.status !== 200) problems.push(`${path} sort_by=${value}: ${JSON.stringify(res.body)}`);
    }
    // A property of the resource that is not a listed parameter is not a filter.
    const resource = doc.components.schemas[list.tags[0]] as JsonSchema;
    const unlisted = Object.keys(resource.properties as object).filter((p) => !names.has(p));
    problems.push(...(await refusedAll([...unlisted, "no_such_filter"].map((p) => ["GET", `${path}?${p}=1`]), "parameter_invalid")));
    problems.push(...(await refusedAll([["GET", `${path}?sort_by=no_such_property`]], "parameter_invalid")));
  }
}
