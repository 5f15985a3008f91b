/**
 * The bad-input walker: every resource of the spec's field tables is sent, over HTTP, every bad
 * write body and list query the tables call for, and each must fail with the spec's error code,
 * name and HTTP status, name the offending property, and write nothing (a checksum of every
 * table). Each refusal is then shown not to be broader than the spec: every property a method may
 * carry is accepted with a valid value and at its maximum length.
 *
 * The expectations come from fixtures/spec-fields.ts (the tables transcribed by hand) through
 * fixtures/spec-cases.ts, never from the declarations or the engine, so deleting a refusal rule
 * from the engine turns this file red. The number of cases of each kind is asserted against a
 * count taken from the table's columns, so no loop here can run without asserting.
 */
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { campaigns, currencies, users } from "../db/schema.ts";
import { acceptedCases, countByKind, EXPECTED, expectedCounts, refusedCases, specRefusal, type AcceptedCase, type CaseValues, type RefusedCase } from "./fixtures/spec-cases.ts";
import { decidedFields, SPEC_DECISIONS, SPEC_FIELDS, type SpecField, type SpecWriteMethod } from "./fixtures/spec-fields.ts";
import { startResourcesWorld, type ResourcesWorld } from "./resources-test-support.ts";
import { databaseFingerprint } from "./test-values.ts";

const FUTURE = "2030-01-01T00:00:00Z";
const LEVEL_4 = { "X-Service-Response-Recursion-Level": "4" };
const REFUSAL_KINDS = ["unknown", "read-only", "immutable", "ops", "missing", "too long", "wrong type"];

let w: ResourcesWorld;
/** rows every walk refers to, made once */
const ids = { chain: 0, campaign: 0, user: 0, currency: 0, business: 0, client: 0, parentPage: "" };
let counter = 0;
const seq = () => ++counter;

beforeAll(async () => {
  w = await startResourcesWorld();
  ids.chain = w.core.chainId;
  // Once the chain has an allowed IP range, requests without a client address (app.request())
  // are refused unless the super-user is exempted, a chain setting.
  await created("PATCH", "/resources/chain", { ip_whitelist_super_user_exemption: true });
  // Campaigns and users have no Resources API yet: their rows are inserted directly.
  ids.campaign = (await w.core.db.insert(campaigns).values({ chainId: ids.chain, title: "Walk" }).$returningId())[0]!.id;
  ids.user = (await w.core.db.insert(users).values({ chainId: ids.chain, username: "walk@example.com" }).$returningId())[0]!.id;
  ids.currency = (await w.core.db.select({ id: currencies.id }).from(currencies).limit(1))[0]!.id;
  ids.business = (await w.seed({ name: "Walk exclusive" })).id;
  ids.client = (await created("POST", "/resources/service_client", { name: "Walk client" })).id;
  ids.parentPage = (await created("POST", "/resources/content-page", { name: "walk-parent" })).name;
});
afterAll(() => w.core.close());

async function created(method: string, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await w.call(method, path, body);
  if (res.status !== 200) throw new Error(`${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
  return res.body.results;
}

/** References by property name: the rows made in beforeAll. */
const REFERENCES: Record<string, () => { id: number }> = {
  chain: () => ({ id: ids.chain }),
  campaign: () => ({ id: ids.campaign }),
  user: () => ({ id: ids.user }),
  currency: () => ({ id: ids.currency }),
  redemption_exclusive_business: () => ({ id: ids.business }),
  service_client: () => ({ id: ids.client }),
};

/** Valid values a row's type alone does not give. */
const SAMPLES: Record<string, Record<string, () => unknown>> = {
  business: { country_code: () => "NL" },
  access_token: { scope: () => `chain:${ids.chain}` },
  // At most one enabled client per chain is the identity source.
  service_client: { is_identity_source: () => false },
  "content-page": { parent: () => ids.parentPage },
};

/** A valid value of a row (null for a nullable reference nothing here can name). */
function sampleOf(resource: string, name: string, row: SpecField): unknown {
  const special = SAMPLES[resource]?.[name] ?? (row.type === "object" ? REFERENCES[name] : undefined);
  if (special) return special();
  const n = seq();
  switch (row.type) {
    case "string":
      if (row.enum) return row.enum[0];
      if (row.length) return "k".repeat(row.length);
      if (row.format === "email") return `walk${n}@example.com`;
      if (row.format === "uri" || row.format === "url") return `https://example.com/${n}`;
      if (row.format === "hostname") return `walk${n}.example.com`;
      if (row.format === "uuid") return "00000000-0000-4000-8000-000000000001";
      if (row.format === "cidr") return `10.${(n >> 8) & 255}.${n & 255}.0/24`;
      return `s${n}`;
    case "integer":
      return 1;
    case "number":
      return 0.5;
    case "boolean":
      return true;
    case "date-time":
      return FUTURE;
    case "array":
      return [];
    case "object":
      if (row.nullable) return null;
      throw new Error(`${resource}.${name}: add a reference to REFERENCES`);
  }
}

/** Voucher fields that only a voucher of another type may carry (per-type rules, voucher.ts). */
const VOUCHER_OF_TYPE: Record<string, Record<string, unknown>> = {
  honour_code: { type: "honour", honour_code: "H1" },
  discount_ratio: { type: "basket_pct", discount_ratio: 0.5 },
};

/** A valid POST body, fit for carrying `field`. */
const POST_BASES: Record<string, (n: number, field?: string) => Record<string, unknown>> = {
  business: (n) => ({ name: `Walk ${n}`, owner_code: `walk-${n}` }),
  voucher: (_n, field) => ({
    ...(VOUCHER_OF_TYPE[field ?? ""] ?? { type: "basket", amount: 5 }),
    campaign: REFERENCES.campaign!(),
    user: REFERENCES.user!(),
    status: "generated",
    expiry_date: FUTURE,
  }),
  access_token: () => ({ service_client: REFERENCES.service_client!(), scope: `chain:${ids.chain}` }),
  service_client: (n) => ({ name: `Walk client ${n}` }),
  "content-page": (n) => ({ name: `walk-page-${n}` }),
  allowed_ip_range: (n) => ({ cidr: `10.${(n >> 8) & 255}.${n & 255}.0/24` }),
};

/** A PUT body re-sending what a POST body set, less what PUT may not carry. */
function putBody(resource: string, postBody: Record<string, unknown>): Record<string, unknown> {
  const fields = decidedFields(resource);
  return Object.fromEntries(Object.entries(postBody).filter(([k]) => specRefusal(fields[k]!, "put") === undefined));
}

/** A new instance to PUT / PATCH (Chain: the header chain) and the POST body it was made with. */
async function makeTarget(resource: string, field?: string): Promise<{ path: string; body: Record<string, unknown> }> {
  const spec = SPEC_FIELDS[resource]!;
  if (!spec.methods.includes("post")) return { path: `${spec.path}/${ids.chain}`, body: {} };
  const body = POST_BASES[resource]!(seq(), field);
  return { path: `${spec.path}/${(await created("POST", spec.path, body)).id}`, body };
}

function caseValues(resource: string, putBase: Record<string, unknown> = {}): CaseValues {
  return {
    base: (method, field) => (method === "post" ? POST_BASES[resource]!(seq(), field) : method === "put" ? { ...putBase } : {}),
    sample: (name, row) => sampleOf(resource, name, row),
    otherId: (row) => (row.format === "uuid" ? "ffffffff-ffff-4fff-bfff-ffffffffffff" : 1_000_000_000),
    seq,
  };
}

/** Sends each case; returns one line per case that was not refused exactly as expected or wrote something. */
async function refuseAll(method: SpecWriteMethod, path: string, cases: RefusedCase[]): Promise<string[]> {
  const problems: string[] = [];
  let before = await databaseFingerprint(w.core.db, w.core.dbName);
  for (const c of cases) {
    const label = `${method.toUpperCase()} ${path} ${c.kind} ${c.field}=${JSON.stringify(c.body[c.field])}`;
    const res = await w.call(method.toUpperCase(), path, c.body);
    const want = EXPECTED[c.expected];
    const error = res.body?.error;
    if (res.status !== want.status || error?.code !== want.code || error?.name !== c.expected) {
      problems.push(`${label}: expected ${want.status} ${want.code} ${c.expected}, got ${res.status} ${JSON.stringify(res.body)}`);
    } else if (!String(error.description).includes(c.field)) {
      problems.push(`${label}: the description does not name ${c.field}: ${error.description}`);
    } else if (c.kind === "read-only" && !String(error.description).includes("read-only")) {
      // Same code as a method outside ops: only the description tells the client no method can write it.
      problems.push(`${label}: the description does not say read-only: ${error.description}`);
    }
    const after = await databaseFingerprint(w.core.db, w.core.dbName);
    if (after !== before) problems.push(`${label}: the database changed`);
    before = after;
  }
  return problems;
}

/** Fields that are set only together with another (the chain's referral window): the other's valid value. */
const COMPANIONS: Record<string, Record<string, unknown>> = {
  referral_code_submission_window_quantity: { referral_code_submission_window_unit: "day" },
  referral_code_submission_window_unit: { referral_code_submission_window_quantity: 1 },
};

/** Sends each case to a fresh target; returns one line per case not accepted, or stored otherwise than sent. */
async function acceptAll(resource: string, method: SpecWriteMethod, cases: AcceptedCase[]): Promise<string[]> {
  const spec = SPEC_FIELDS[resource]!;
  const fields = decidedFields(resource);
  const problems: string[] = [];
  for (const c of cases) {
    const target = method === "post" ? undefined : await makeTarget(resource, c.field);
    const base = method === "post" ? POST_BASES[resource]!(seq(), c.field) : method === "put" ? putBody(resource, target!.body) : {};
    const res = await w.call(method.toUpperCase(), target?.path ?? spec.path, { ...base, ...COMPANIONS[c.field], [c.field]: c.value }, LEVEL_4);
    const label = `${method.toUpperCase()} ${resource} ${c.kind} ${c.field}=${JSON.stringify(c.value).slice(0, 80)}`;
    const row = fields[c.field]!;
    // Plain values come back as sent; formatted ones (datetimes, CIDRs, references) are normalised.
    const plain = ["integer", "number", "boolean"].includes(row.type) || (row.type === "string" && !row.format);
    if (res.status !== 200) problems.push(`${label}: got ${res.status} ${JSON.stringify(res.body)}`);
    else if (plain && !isDeepStrictEqual(res.body.results[c.field], c.value)) problems.push(`${label}: stored as ${JSON.stringify(res.body.results[c.field])}`);
  }
  return problems;
}

describe.each(Object.keys(SPEC_FIELDS))("bad input: %s", (resource) => {
  const spec = SPEC_FIELDS[resource]!;
  const fields = decidedFields(resource);

  for (const method of ["post", "put", "patch"] as const) {
    const offered = spec.methods.includes(method);
    const counts = expectedCounts(fields, method);

    it.runIf(offered)(`${method.toUpperCase()} refuses every bad body the table calls for and writes nothing`, { timeout: 300_000 }, async () => {
      const target = method === "post" ? undefined : await makeTarget(resource);
      const cases = refusedCases(fields, method, caseValues(resource, target && putBody(resource, target.body)));
      const want = Object.fromEntries(REFUSAL_KINDS.map((k) => [k, counts[k as keyof typeof counts]]).filter(([, n]) => n !== 0));
      expect(countByKind(cases)).toEqual(want);
      expect(await refuseAll(method, target?.path ?? spec.path, cases)).toEqual([]);
    });

    it.runIf(offered)(`${method.toUpperCase()} accepts every property it may carry, with a valid value and at its maximum length`, { timeout: 300_000 }, async () => {
      const cases = acceptedCases(fields, method, caseValues(resource));
      expect(countByKind(cases)).toEqual({ "valid value": counts["valid value"], ...(counts["maximum length"] ? { "maximum length": counts["maximum length"] } : {}) });
      expect(await acceptAll(resource, method, cases)).toEqual([]);
    });
  }

  it.runIf(spec.pluralPath !== undefined)("the list refuses what is not a filter or sort key and accepts what is", { timeout: 120_000 }, async () => {
    const rows = Object.entries(fields);
    const refused = ["sort_by=no_such_property", "no_such_filter=1", "limit=0", "limit=501", "limit=abc", "offset=-1", "sort_order=sideways"];
    for (const [name, row] of rows) {
      if (!row.S) refused.push(`sort_by=${name}`);
      if (!row.F) refused.push(`${name}=1`);
    }
    const accepted: string[] = [];
    for (const [name, row] of rows) {
      if (row.S) accepted.push(`sort_by=${name}`, `sort_by=${name}&sort_order=desc`);
      const value = sampleOf(resource, name, row);
      // A reference filters by its numeric id (spec, "Resource-specific behaviour").
      if (row.F) accepted.push(`${name}=${encodeURIComponent(String(row.type === "object" ? (REFERENCES[name]?.().id ?? 1) : value))}`);
    }
    expect(refused.length).toBe(7 + rows.filter(([, r]) => !r.S).length + rows.filter(([, r]) => !r.F).length);
    expect(accepted.length).toBe(rows.filter(([, r]) => r.S).length * 2 + rows.filter(([, r]) => r.F).length);

    const problems: string[] = [];
    const before = await databaseFingerprint(w.core.db, w.core.dbName);
    for (const q of refused) {
      const res = await w.call("GET", `${spec.pluralPath}?${q}`);
      if (res.status !== 400 || res.body?.error?.code !== 419) problems.push(`?${q}: expected 400 419, got ${res.status} ${JSON.stringify(res.body)}`);
    }
    for (const q of accepted) {
      const res = await w.call("GET", `${spec.pluralPath}?${q}`);
      if (res.status !== 200) problems.push(`?${q}: expected 200, got ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(problems).toEqual([]);
    expect(await databaseFingerprint(w.core.db, w.core.dbName)).toBe(before);
  });
});

describe("the transcribed tables", () => {
  it("name the same properties as the schema document, decisions aside", async () => {
    const doc = (await w.core.json("/resources/schema")).body;
    const differences: string[] = [];
    for (const resource of Object.keys(SPEC_FIELDS)) {
      const served = Object.keys(doc.components.schemas[resource]?.properties ?? {}).sort();
      const table = Object.keys(decidedFields(resource)).sort();
      if (!isDeepStrictEqual(served, table)) differences.push(`${resource}: schema ${served.join(",")} / table ${table.join(",")}`);
    }
    expect(differences).toEqual([]);
  });

  it("apply each decision to a row of a served resource", () => {
    expect(SPEC_DECISIONS.length).toBeGreaterThan(0);
    for (const d of SPEC_DECISIONS) expect(SPEC_FIELDS[d.resource], d.resource).toBeDefined();
  });
});
