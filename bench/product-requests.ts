/**
 * The product's requests the bench sends, as a real client sends them (the admin session headers
 * of the bench admin, JSON bodies), shared by the statement capture (latency section) and the
 * throughput section: a business by id, add-business, the searches, and the connector's
 * authenticate with its bench customers.
 */
import { sql } from "drizzle-orm";
import type { CoreDb } from "../core-api/src/db/client.ts";
import { encodeParams } from "../scripts/lib/http-client.ts";
import { requestFor, type SearchCase } from "./cases.ts";
import type { BenchChain, BenchContext } from "./section.ts";

/** A request: method, path with query, headers, JSON body (as text). */
export interface ProductRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The chain add-business writes into: its stores are wiped before and after a section writes. */
export const WRITES_CHAIN_NAME = "Bench Writes";

/** `GET /resources/business/{id}` as the bench admin of `chain`. */
export function byIdRequest(chain: BenchChain, id: number): ProductRequest {
  return { method: "GET", path: `/resources/business/${id}`, headers: chain.headers };
}

/** `GET /resources/businesses` with the search `c`, as the bench admin of `chain`. */
export function searchRequest(chain: BenchChain, c: SearchCase): ProductRequest {
  const { path, params } = requestFor(c, "resources", chain.chainId);
  return { method: "GET", path: `${path}?${encodeParams(params)}`, headers: chain.headers };
}

/**
 * `POST /internal/add-business` creating store number `n` of a run in `writes` (JSON, as the
 * importer of the demo sends it): a unique owner_code per run and store, coordinates near Utrecht.
 */
export function addBusinessRequest(writes: BenchChain, runTag: string, n: number): ProductRequest {
  const body = {
    chain_id: writes.chainId,
    name: `Bench Write ${runTag} ${n}`,
    owner_code: `BW-${runTag}-${n}`,
    towncity: "Utrecht",
    countrycode: "NL",
    latitude: 52.09 + (n % 1000) * 1e-4,
    longitude: 5.12 + (n % 997) * 1e-4,
  };
  return { method: "POST", path: "/internal/add-business", headers: { ...writes.headers, "content-type": "application/json" }, body: JSON.stringify(body) };
}

/** The values add-business inserts for store `n`, for the bare INSERT floor (same columns). */
export function addBusinessRow(chainId: number, runTag: string, n: number) {
  return {
    chainId,
    name: `Bench Floor ${runTag} ${n}`,
    ownerCode: `BF-${runTag}-${n}`,
    towncity: "Utrecht",
    countryCode: "NL",
    latitude: 52.09 + (n % 1000) * 1e-4,
    longitude: 5.12 + (n % 997) * 1e-4,
  };
}

/** The chain add-business writes into (WRITES_CHAIN_NAME), emptied once per run. */
export function writesChain(ctx: BenchContext): Promise<BenchChain> {
  return ctx.emptyChain(WRITES_CHAIN_NAME);
}

/**
 * `count` ids of live stores of `chainId`, a fixed pseudo-random sample (the same every run for
 * the same data), for the by-id reads and the primary-key floors.
 */
export function sampleIds(db: CoreDb, chainId: number, count = 1000): Promise<number[]> {
  return (db.execute(sql`SELECT id FROM businesses WHERE chain_id = ${chainId} AND deleted = 0 ORDER BY RAND(20261122) LIMIT ${count}`) as unknown as Promise<
    [Array<{ id: number }>]
  >).then(([rows]) => rows.map((r) => Number(r.id)));
}
