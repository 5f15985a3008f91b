/**
 * GET /docs makes no request to any outside host: the page names none, Scalar's script comes from
 * this service, and the configuration switches off the features that call the vendor (checked
 * against the pinned bundle, so an upgrade that renames an option fails here rather than silently
 * calling out).
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { createApp } from "../app.ts";
import { loadCoreConfig } from "../config.ts";
import { loadScalarBundle } from "./docs-asset.node.ts";
import { chooseCoding, matchesEtag } from "./docs-script.ts";
import { DOCS_CONFIGURATION, DOCS_PATH, DOCS_SCRIPT_PATH } from "./docs.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core?.close());

const appWithBundle = () => createApp({ db: core.db, config: loadCoreConfig({}), docsScript: loadScalarBundle });

/** The configuration object the page hands to Scalar.createApiReference. */
function pageConfiguration(html: string): Record<string, unknown> {
  const m = /Scalar\.createApiReference\('#app', (\{[\s\S]*\})\)\s*<\/script>/.exec(html);
  if (!m) throw new Error(`no createApiReference call in:\n${html}`);
  return JSON.parse(m[1]!) as Record<string, unknown>;
}

describe("GET /docs", () => {
  it("names no outside host and loads Scalar from this service", async () => {
    const res = await appWithBundle().request(DOCS_PATH);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/https?:\/\/[^\s"'<>]+/g)).toBeNull();
    expect(html.match(/<script src="([^"]+)"/g)).toEqual([`<script src="${DOCS_SCRIPT_PATH}"`]);
  });

  it("switches off the agent, the developer toolbar, the client button, fonts and telemetry", async () => {
    const config = pageConfiguration(await (await appWithBundle().request(DOCS_PATH)).text());
    expect(config).toMatchObject({
      url: "/resources/schema",
      agent: { disabled: true },
      showDeveloperTools: "never",
      hideClientButton: true,
      withDefaultFonts: false,
      telemetry: false,
    });
    expect(config).not.toHaveProperty("proxyUrl"); // no request proxy: "try it" calls this service directly
  });

  it("answers the browser's icon request with 204, not an error", async () => {
    const res = await core.request("/favicon.ico");
    expect(res.status).toBe(204);
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
  });

  it("serves the same page without a bundle loader, but no script then", async () => {
    const html = await (await core.request(DOCS_PATH)).text();
    expect(html.match(/https?:\/\/[^\s"'<>]+/g)).toBeNull();
    expect((await core.request(DOCS_SCRIPT_PATH)).status).toBe(404);
  });

  it("relies on options the pinned Scalar bundle honours", async () => {
    const bundle = await loadScalarBundle();
    expect(bundle).toContain("@scalar/api-reference 1.46.4"); // its banner
    // the agent is on unless `agent.disabled` (and it loads the vendor's registry)
    expect(bundle).toContain("return!e?.agent?.disabled&&");
    expect(bundle).toContain('c9e="https://registry.scalar.com"');
    // the toolbar (Deploy, Share) follows showDeveloperTools, which accepts "never"
    expect(bundle).toContain('showDeveloperTools:md.enum(["always","localhost","never"])');
    // the client button hides with hideClientButton
    expect(bundle).toContain("!e.hideClientButton");
    expect(Object.keys(DOCS_CONFIGURATION)).toEqual(
      ["url", "pageTitle", "cdn", "withDefaultFonts", "agent", "showDeveloperTools", "hideClientButton", "telemetry"],
    );
  });
});

describe("GET /docs/scalar.js", () => {
  const app = () => appWithBundle();
  const get = (a: ReturnType<typeof appWithBundle>, headers: Record<string, string>) => a.request(DOCS_SCRIPT_PATH, { headers });

  it("answers Brotli or gzip when accepted, each the bundle once decompressed, much smaller", async () => {
    const a = app();
    const bundle = await loadScalarBundle();
    const br = await get(a, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(bundle.length / 3);
    expect(brotliDecompressSync(brBody).toString("utf8")).toBe(bundle);

    const gz = await get(a, { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString("utf8")).toBe(bundle);

    const plain = await get(a, {});
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(bundle);
  });

  it("gives each form its own ETag and answers a matching If-None-Match with 304 and no body", async () => {
    const a = app();
    const br = await get(a, { "accept-encoding": "br" });
    const gz = await get(a, { "accept-encoding": "gzip" });
    const etag = br.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    expect(gz.headers.get("etag")).not.toBe(etag);
    expect(br.headers.get("cache-control")).toBe("public, max-age=3600");
    const again = await get(a, { "accept-encoding": "br", "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect((await get(a, { "accept-encoding": "gzip", "if-none-match": etag })).status).toBe(200);
  });

  it("reads Accept-Encoding by its q-values and If-None-Match by weak comparison", () => {
    expect(chooseCoding(undefined)).toBe("identity");
    expect(chooseCoding("gzip;q=1.0, br;q=0")).toBe("gzip");
    expect(chooseCoding("br;q=0.5, gzip")).toBe("br");
    expect(chooseCoding("*")).toBe("br");
    expect(chooseCoding("*;q=0, gzip")).toBe("gzip");
    expect(chooseCoding("deflate, identity")).toBe("identity");
    expect(matchesEtag('W/"abc-br", "x"', '"abc-br"')).toBe(true);
    expect(matchesEtag('"abc-gzip"', '"abc-br"')).toBe(false);
    expect(matchesEtag("*", '"abc-br"')).toBe(true);
  });
});
