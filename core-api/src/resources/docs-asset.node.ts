/**
 * Node-only: the standalone Scalar bundle from node_modules, so /docs works without internet
 * (see docs.ts). Pinned with @scalar/hono-api-reference in core-api/package.json: the page that
 * package writes calls `Scalar.createApiReference`, which this bundle defines.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

/** Reads `@scalar/api-reference/browser/standalone.js`. */
export async function loadScalarBundle(): Promise<string> {
  return readFile(createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js"), "utf8");
}
