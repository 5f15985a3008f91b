/**
 * `GET /docs`: the interactive API reference for people (Scalar), built in the browser from
 * `GET /resources/schema`, so it always shows what the service serves.
 *
 * The page makes no request to any host but this service: Scalar's script is served from
 * `/docs/scalar.js` (never its CDN), its web fonts are off, and its cloud features are switched
 * off in the configuration below: the AI agent (which searches the vendor's registry on load),
 * the developer toolbar (Deploy, Share: uploads the document to the vendor), the "open in the
 * vendor's client" button and telemetry. Reading the bundle needs the runtime's file system,
 * which only the entries may touch, so the app is given a loader: main.node.ts passes
 * docs-asset.node.ts, main.deno.ts its Deno equivalent. Without one (tests that do not serve the
 * page's script) `/docs/scalar.js` is simply not there. The script is served compressed when the
 * browser accepts it, with an ETag (docs-script.ts).
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Hono } from "hono";
import type { AppEnv } from "../auth/request-context.ts";
import { chooseCoding, matchesEtag, prepareScript, type PreparedScript } from "./docs-script.ts";
import { SCHEMA_PATH } from "./schema-document.ts";

export const DOCS_PATH = "/docs";
/** The icon browsers ask for. */
export const FAVICON_PATH = "/favicon.ico";
/** Where the Scalar bundle is served. */
export const DOCS_SCRIPT_PATH = "/docs/scalar.js";

/** Loads the standalone Scalar bundle (JavaScript) of @scalar/api-reference. */
export type DocsScriptLoader = () => Promise<string>;

/**
 * Scalar's configuration (@scalar/api-reference 1.46): everything that would reach a host other
 * than this service is off.
 */
export const DOCS_CONFIGURATION = {
  url: SCHEMA_PATH,
  pageTitle: "Service Resources API (BETA)",
  cdn: DOCS_SCRIPT_PATH,
  withDefaultFonts: false,
  /** "Ask AI": on by default on localhost, it loads curated APIs from registry.scalar.com */
  agent: { disabled: true },
  /** the toolbar with Deploy and Share (upload to api.scalar.com) */
  showDeveloperTools: "never",
  /** "Open in API client" links to client.scalar.com */
  hideClientButton: true,
  telemetry: false,
} as const;

/**
 * Mounts the docs page (public, like the schema it shows).
 * @param loadScript reads Scalar's bundle; `/docs/scalar.js` is served only when given
 */
export function registerDocs(app: Hono<AppEnv>, loadScript?: DocsScriptLoader): void {
  app.get(DOCS_PATH, Scalar({ ...DOCS_CONFIGURATION }));
  // Browsers ask every page's origin for an icon: the service has none, and says so without an
  // error (a 404 is logged in the page's console), for a day.
  app.get(FAVICON_PATH, (c) => c.body(null, 204, { "cache-control": "public, max-age=86400" }));
  if (!loadScript) return;
  let cached: Promise<PreparedScript> | undefined;
  app.get(DOCS_SCRIPT_PATH, async (c) => {
    // Read and compressed once per process; a failed read is retried by the next request.
    cached ??= loadScript().then(prepareScript).catch((err: unknown) => {
      cached = undefined;
      throw err;
    });
    const coding = chooseCoding(c.req.header("accept-encoding"));
    const form = (await cached)[coding];
    const headers: Record<string, string> = {
      "content-type": "text/javascript; charset=utf-8",
      // An hour fresh, then revalidated with the ETag (a new bundle has a new one).
      "cache-control": "public, max-age=3600",
      etag: form.etag,
      vary: "Accept-Encoding",
      ...(coding === "identity" ? {} : { "content-encoding": coding }),
    };
    if (matchesEtag(c.req.header("if-none-match"), form.etag)) return c.body(null, 304, headers);
    return c.body(form.body, 200, headers);
  });
}
