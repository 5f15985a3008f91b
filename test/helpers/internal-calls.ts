/**
 * Requests to the internal calls in each body encoding they accept (spec: multipart/form-data,
 * application/x-www-form-urlencoded, application/json), and row checks for write tests.
 *
 * @example
 *   const res = await core.json("/internal/add-business", encode("form", "POST", admin.headers, { chain_id: 1, name: "A" }));
 */
import { eq, sql } from "drizzle-orm";
import { businesses } from "../../core-api/src/db/schema.ts";
import type { TestCore } from "./core.ts";

export const ENCODINGS = ["json", "form", "multipart"] as const;
export type Encoding = (typeof ENCODINGS)[number];

type Value = string | number | boolean | null | object;

/**
 * A request init carrying `params` in `encoding`. Form encodings send every value as text
 * (objects as JSON text, null as an empty value); JSON sends them as they are.
 */
export function encode(encoding: Encoding, method: string, headers: Record<string, string>, params: Record<string, Value>): RequestInit {
  const text = (v: Value) => (v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
  if (encoding === "json") {
    return { method, headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(params) };
  }
  if (encoding === "form") {
    const body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, text(v)])).toString();
    return { method, headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }, body };
  }
  const form = new FormData();
  for (const [k, v] of Object.entries(params)) form.append(k, text(v));
  return { method, headers, body: form };
}

/** Number of business rows of all chains, deleted ones included. */
export async function countBusinesses(core: TestCore): Promise<number> {
  const [rows] = (await core.db.execute(sql`SELECT COUNT(*) AS n FROM businesses`)) as unknown as [Array<{ n: number }>];
  return Number(rows[0]!.n);
}

/** The stored row of business `id`. */
export async function businessRow(core: TestCore, id: number) {
  const [row] = await core.db.select().from(businesses).where(eq(businesses.id, id));
  return row;
}

/** A query string of `params` (for get-businesses). */
export function query(params: Record<string, string | number | boolean>): string {
  return new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
}
