/**
 * Serving Scalar's bundle (`/docs/scalar.js`, about 3.5 MB of JavaScript) the way a browser
 * wants a large static file: compressed with Brotli or gzip when the request's Accept-Encoding
 * allows it (about 0.8 / 1 MB), each compressed form made once per process and kept, with an
 * ETag per form (a conditional request answers 304 without a body) and `Vary: Accept-Encoding`.
 *
 * node:zlib (Node, and Deno's node compatibility) compresses on its thread pool, so the first
 * request does not block the event loop for the seconds Brotli takes on 3.5 MB.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A content coding this module serves, best first. */
export type ContentCoding = "br" | "gzip" | "identity";

/** One stored form of the script: its bytes and its ETag. */
interface ScriptForm {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** The script in each coding. */
export type PreparedScript = Record<ContentCoding, ScriptForm>;

/**
 * Compresses `source` once into every coding.
 * @param source the bundle's JavaScript text
 * @returns its identity, Brotli and gzip forms, each with a strong ETag (content hash plus coding)
 */
export async function prepareScript(source: string): Promise<PreparedScript> {
  const identity = new TextEncoder().encode(source);
  const hash = createHash("sha256").update(identity).digest("base64url").slice(0, 27);
  const [br, gz] = await Promise.all([
    // Quality 9 of 11: within a few percent of the best size at a fraction of its time.
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity, { level: 9 }),
  ]);
  const form = (body: Uint8Array<ArrayBuffer>, coding: ContentCoding): ScriptForm => ({ body, etag: `"${hash}-${coding}"` });
  return { identity: form(identity, "identity"), br: form(new Uint8Array(br), "br"), gzip: form(new Uint8Array(gz), "gzip") };
}

/**
 * The coding to answer with, from an Accept-Encoding header (RFC 9110 12.5.3): `br` before
 * `gzip` when both are acceptable (q > 0, named or through `*`), else identity.
 * @param header the request's Accept-Encoding; absent means identity only
 */
export function chooseCoding(header: string | undefined): ContentCoding {
  if (!header) return "identity";
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find(Boolean);
    q.set(name, weight ? Number(weight[1]) : 1);
  }
  const acceptable = (coding: string) => (q.get(coding) ?? q.get("*") ?? 0) > 0;
  if (acceptable("br")) return "br";
  if (acceptable("gzip") || (q.get("x-gzip") ?? 0) > 0) return "gzip";
  return "identity";
}

/** Whether an If-None-Match header matches `etag` (weak comparison, as RFC 9110 13.1.2 asks). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((t) => t.trim().replace(/^W\//, "") === etag);
}
