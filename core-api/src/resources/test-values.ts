/**
 * Test support: values generated from a property's JSON Schema (from the schema document or from
 * a declaration through schema-components.ts), so the generated tests need no per-property data.
 * Also a fingerprint of the whole database, to assert that a refused request wrote nothing.
 */
import { sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { JsonSchema } from "./schema-components.ts";

const FORMATS: Record<string, (seq: number) => string> = {
  "date-time": () => "2030-01-01T00:00:00Z",
  date: () => "2030-01-01",
  email: (n) => `sample${n}@example.com`,
  uuid: (n) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  uri: () => "https://example.com/",
  url: () => "https://example.com/",
  hostname: () => "example.com",
  ipv4: () => "10.0.0.1",
  cidr: (n) => `10.${n % 256}.0.0/16`,
};

/** The non-null branch of a nullable schema (`anyOf [x, null]` or `type: [x, "null"]`). */
export function mainBranch(s: JsonSchema): JsonSchema {
  const anyOf = s.anyOf as JsonSchema[] | undefined;
  if (anyOf) return mainBranch(anyOf.find((b) => b.type !== "null") ?? {});
  if (Array.isArray(s.type)) {
    const values = s.enum as unknown[] | undefined;
    return { ...s, type: (s.type as string[]).find((t) => t !== "null"), ...(values ? { enum: values.filter((v) => v !== null) } : {}) };
  }
  return s;
}

/**
 * A valid value of `schema` (not null), distinct per `seq` where the type allows (names and codes
 * that must be unique in a chain).
 * @returns undefined when no value can be made generically (a pattern none of the candidates meet)
 */
export function sampleValue(schema: JsonSchema, seq: number): unknown {
  const s = mainBranch(schema);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (s.type) {
    case "boolean":
      return true;
    case "integer":
    case "number":
      return Math.min(Math.max(1, Number(s.minimum ?? 1)), Number(s.maximum ?? 1));
    case "array":
      return [];
    case "object": {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      for (const key of (s.required ?? []) as string[]) out[key] = sampleValue(props[key] ?? {}, seq);
      return out;
    }
    case "string":
      return sampleString(s, seq);
    default:
      return undefined;
  }
}

function sampleString(s: JsonSchema, seq: number): string | undefined {
  const min = Number(s.minLength ?? 0);
  const max = Number(s.maxLength ?? 255);
  const fit = (v: string) => (v.length >= min && v.length <= max && (!s.pattern || new RegExp(String(s.pattern), "u").test(v)) ? v : undefined);
  if (typeof s.format === "string" && FORMATS[s.format]) return fit(FORMATS[s.format]!(seq));
  const plain = `v${seq}`.padEnd(min, "x").slice(0, Math.max(max, 1));
  // Candidates for patterned strings: the common shapes of codes (country codes, upper-case).
  for (const v of [plain, "AA", "NL", "a", "A1", "1"]) if (fit(v) !== undefined) return v;
  return undefined;
}

/**
 * A string one character over `maxLength` that breaks no other rule, or undefined when the
 * schema has no maximum or padding would break another rule (a pattern, an enum, most formats).
 */
export function overlongValue(schema: JsonSchema): string | undefined {
  const s = mainBranch(schema);
  if (s.type !== "string" || typeof s.maxLength !== "number" || s.pattern !== undefined || s.enum !== undefined) return undefined;
  const n = s.maxLength + 1;
  if (s.format === undefined) return "x".repeat(n);
  if (s.format === "email") return `${"a".repeat(Math.max(1, n - 12))}@example.com`;
  if (s.format === "uri" || s.format === "url") return `https://example.com/${"a".repeat(Math.max(1, n - 20))}`;
  return undefined;
}

/**
 * Values of the wrong JSON type for `schema` (every one is refused with 419 parameter_invalid);
 * empty for schemas that accept any type.
 */
export function wrongTypeValues(schema: JsonSchema): unknown[] {
  const s = mainBranch(schema);
  switch (s.type) {
    case "string":
      return [12345, true, { x: 1 }];
    case "integer":
      return ["abc", 1.5, false];
    case "number":
      return ["abc", false];
    case "boolean":
      return ["maybe", 2];
    case "object":
      return ["x", 7];
    case "array":
      return ["x", { x: 1 }];
    default:
      return [];
  }
}

/**
 * A fingerprint of every table of the database: per table its row count and the XOR of a CRC32
 * per row over every stored column (generated ones left out), in one query. Equal before and
 * after a request only when the request wrote nothing (sessions are not written per request).
 * Not CHECKSUM TABLE: on MariaDB 10.11 it sometimes answers differently for unchanged rows of a
 * table with a generated column (seen on allowed_ip_ranges under load).
 */
export async function databaseFingerprint(db: CoreDb, dbName: string): Promise<string> {
  let query = FINGERPRINT_QUERIES.get(dbName);
  if (!query) {
    query = await fingerprintQuery(db, dbName);
    FINGERPRINT_QUERIES.set(dbName, query);
  }
  const [sums] = (await db.execute(sql.raw(query))) as unknown as [Array<{ t: string; n: number; x: number | string }>];
  return sums.map((r) => `${r.t}=${r.n}:${r.x}`).join(";");
}

/** The fingerprint query per database: its tables and columns do not change during a test file. */
const FINGERPRINT_QUERIES = new Map<string, string>();

async function fingerprintQuery(db: CoreDb, dbName: string): Promise<string> {
  const [columns] = (await db.execute(
    sql`SELECT table_name AS t, column_name AS c FROM information_schema.columns
        WHERE table_schema = ${dbName} AND extra NOT LIKE '%GENERATED%' ORDER BY table_name, ordinal_position`,
  )) as unknown as [Array<{ t: string; c: string }>];
  const byTable = new Map<string, string[]>();
  for (const { t, c } of columns) byTable.set(t, [...(byTable.get(t) ?? []), c]);
  const quote = (name: string) => `\`${name.replace(/`/g, "``")}\``;
  const parts = [...byTable].map(([t, cs]) => {
    // NULL and the empty text must differ, and the separator must not occur in the values' text form.
    const row = cs.map((c) => `IFNULL(HEX(CAST(${quote(c)} AS BINARY)), 'N')`).join(", ");
    return `SELECT '${t}' AS t, COUNT(*) AS n, COALESCE(BIT_XOR(CRC32(CONCAT_WS(',', ${row}))), 0) AS x FROM ${quote(t)}`;
  });
  return parts.join(" UNION ALL ");
}
