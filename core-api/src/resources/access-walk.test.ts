/**
 * The access table alone decides who may attempt what (no adapter keeps a copy): every operation
 * of every resource, for every kind of caller, answers as the spec's availability table says.
 *
 * The oracle is the spec's table transcribed below, not the code's table. Each request carries an
 * unknown query parameter, which every operation refuses with 419 once access is granted: a 419
 * proves the caller got past access, a 544 that it was refused before anything was read. Callers
 * hold full access where they can (a super-user admin, a `chain:` token), so a 544 comes from the
 * caller's kind alone. Nothing is written either way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineOperation } from "../auth/access-table.ts";
import { chainChecksum, startTwoChains, type TwoChains } from "../auth/two-chains.test-support.ts";
import { ADAPTERS } from "./resource-routes.ts";

type Kind = "admin" | "chain_scope" | "read_businesses" | "end_user";
const ALL: EngineOperation[] = ["get", "list", "create", "update", "delete"];
const GET: EngineOperation[] = ["get", "list"];

/** Spec, "Authentication": availability per resource, with "writes ... require super-user admin access". */
const SPEC: Record<string, Record<Kind, EngineOperation[]>> = {
  business: { admin: ALL, chain_scope: ALL, read_businesses: GET, end_user: GET },
  voucher: { admin: ALL, chain_scope: ALL, read_businesses: [], end_user: GET },
  "content-page": { admin: ALL, chain_scope: ALL, read_businesses: [], end_user: GET },
  // "yes, chain scope", but writes need a super-user admin, which a token never is
  allowed_ip_range: { admin: ALL, chain_scope: GET, read_businesses: [], end_user: [] },
  // GET and PUT/PATCH only; PUT/PATCH need a super-user admin
  chain: { admin: ["get", "update"], chain_scope: ["get"], read_businesses: [], end_user: [] },
  access_token: { admin: ALL, chain_scope: [], read_businesses: [], end_user: [] },
  service_client: { admin: ALL, chain_scope: [], read_businesses: [], end_user: [] },
  // not in the spec's table; the handbook makes it a super-user resource, reads included
  member_number_range: { admin: ALL, chain_scope: [], read_businesses: [], end_user: [] },
  // not in the spec's table; the handbook ("Events") makes webhooks a super-user resource, and the
  // outbox's deliveries with them (no POST: the changes that cause them write them)
  webhook: { admin: ALL, chain_scope: [], read_businesses: [], end_user: [] },
  event_delivery: { admin: ["get", "list", "update", "delete"], chain_scope: [], read_businesses: [], end_user: [] },
};

let w: TwoChains;
let headers: Record<Kind, Record<string, string>>;
beforeAll(async () => {
  w = await startTwoChains();
  const chain = { "X-Service-Chain-ID": String(w.chainA) };
  headers = { admin: w.adminA.headers, chain_scope: { ...w.tokenA, ...chain }, read_businesses: { ...w.readBusinessesA, ...chain }, end_user: w.shopperA };
}, 60_000);
afterAll(() => w.core.close());

/** Every operation an adapter offers, as a request. */
function requests(): Array<{ resource: string; op: EngineOperation; method: string; path: string }> {
  const out: Array<{ resource: string; op: EngineOperation; method: string; path: string }> = [];
  for (const a of ADAPTERS) {
    const d = a.declaration;
    const add = (op: EngineOperation, method: string, path: string) => out.push({ resource: d.name, op, method, path: `${path}?no_such_parameter=1` });
    add("get", "GET", d.path);
    if (a.list) add("list", "GET", d.pluralPath);
    if (a.create) add("create", "POST", d.path);
    if (a.update) add("update", "PATCH", d.path);
    if (a.update) add("update", "PUT", d.path);
    if (a.remove) add("delete", "DELETE", d.path);
  }
  return out;
}

describe("every operation, every kind of caller", () => {
  it("passes access (419) exactly where the spec's table allows it, else 544; nothing is written", async () => {
    const before = await chainChecksum(w.core, w.chainA);
    const cases = requests();
    expect(cases).toHaveLength(8 * 6 + 3 + 5);
    let checked = 0;
    for (const { resource, op, method, path } of cases) {
      for (const kind of Object.keys(SPEC[resource]!) as Kind[]) {
        const res = await w.core.json(path, { method, headers: { ...headers[kind], "content-type": "application/json" }, ...(method === "GET" ? {} : { body: "{}" }) });
        const expected = SPEC[resource]![kind].includes(op) ? 419 : 544;
        expect(res.body?.error?.code, `${kind} ${method} ${path}: ${JSON.stringify(res.body)}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBe(cases.length * 4);
    expect(await chainChecksum(w.core, w.chainA)).toBe(before);
  });

  it("the campaign change log: admins only", async () => {
    const kinds = Object.keys(headers) as Kind[];
    expect(kinds).toHaveLength(4);
    for (const kind of kinds) {
      const res = await w.core.json("/resources/campaign/1/change_log?no_such_parameter=1", { headers: headers[kind] });
      expect(res.body?.error?.code, kind).toBe(kind === "admin" ? 419 : 544);
    }
  });

  it("anonymous callers get 6 everywhere", async () => {
    const cases = requests();
    for (const { method, path } of cases) {
      const res = await w.core.json(path, { method, headers: { "X-Service-Chain-ID": String(w.chainA) } });
      expect(res.body?.error?.code, `${method} ${path}`).toBe(6);
    }
    expect(cases.length).toBeGreaterThan(0);
  });
});
