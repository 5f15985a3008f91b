/**
 * `GET /docs`: the interactive API reference for people (Scalar), built in the browser from
 * `GET /resources/schema`, so it always shows what the service serves.
 *
 * Offline use: Scalar's page loads its script from a CDN unless told otherwise. When the app is
 * given `docsScript` (the Node entry passes the bundle of @scalar/api-reference from
 * node_modules, see docs-asset.node.ts), the page loads it from `/docs/scalar.js` instead and
 * Scalar's web fonts are switched off, so the page needs no internet. Without it (the Deno entry,
 * tests) the CDN is used. Reading node_modules needs the file system, which only *.node.ts files
 * may touch, hence the injected loader.
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";
import type { AppEnv } from "../http/request-context.ts";
import { SCHEMA_PATH } from "./schema-document.ts";

export const DOCS_PATH = "/docs";
/** Where the locally served Scalar bundle lives, when there is one. */
export const DOCS_SCRIPT_PATH = "/docs/scalar.js";

/** Loads the standalone Scalar bundle (JavaScript). */
export type DocsScriptLoader = () => Promise<string>;

/**
 * Mounts the docs page (public, like the schema it shows).
 * @param loadScript serves Scalar's script locally when given; the CDN is used otherwise
 */
export function registerDocs(app: Hono<AppEnv>, loadScript?: DocsScriptLoader): void {
  app.get(
    DOCS_PATH,
    Scalar({
      url: SCHEMA_PATH,
      pageTitle: "Service Resources API (BETA)",
      ...(loadScript ? { cdn: DOCS_SCRIPT_PATH, withDefaultFonts: false } : {}),
    }),
  );
  if (!loadScript) return;
  let cached: Promise<string> | undefined;
  app.get(DOCS_SCRIPT_PATH, async (c) => {
    // Read once per process; a failed read is retried by the next request.
    cached ??= loadScript().catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
    return c.body(await cached, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" });
  });
}
