/**
 * GET /resources/schema passes two third-party OpenAPI linters with their stock rulesets and no
 * finding at all (errors, warnings, hints): Spectral's `spectral:oas` (recommended) and Redocly's
 * `recommended`. A finding names the rule and the place, so a change to a declaration, the
 * access table or the generator that makes the document worse fails here. And the docs page's
 * own reader (Scalar's workspace store, the version @scalar/api-reference pins) reads it without
 * a validation error (it logs them to the browser's console).
 */
import { readFileSync } from "node:fs";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Spectral, type RulesetDefinition } from "@stoplight/spectral-core";
import { oas } from "@stoplight/spectral-rulesets";
import { createWorkspaceStore } from "@scalar/workspace-store/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";

/** The repository's root. */
const ROOT = new URL("../../../", import.meta.url);
let core: TestCore;
let source: string;
beforeAll(async () => {
  core = await startCore();
  const res = await core.request("http://127.0.0.1:8080/resources/schema");
  expect(res.status).toBe(200);
  source = await res.text();
});
afterAll(() => core?.close());

describe("the schema document under stock linters", () => {
  it("has no Spectral spectral:oas finding", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, "recommended"]] });
    const findings = await spectral.run(JSON.parse(source) as Record<string, unknown>);
    expect(findings.map((f) => `${f.code} at ${f.path.join(".")}: ${f.message}`)).toEqual([]);
  });

  it("has no Redocly recommended finding", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source, absoluteRef: "schema.json", config });
    expect(problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it("checks with the reader the docs page uses (the version @scalar/api-reference depends on)", () => {
    const read = (path: string) => JSON.parse(readFileSync(new URL(path, ROOT), "utf8")) as Record<string, Record<string, string>>;
    const reference = read("node_modules/@scalar/api-reference/package.json");
    const root = read("package.json");
    expect(root.devDependencies!["@scalar/workspace-store"]).toBe(reference.dependencies!["@scalar/workspace-store"]);
  });

  it("loads in the docs page's reader without a validation error", async () => {
    const warnings: unknown[][] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args));
    const info = vi.spyOn(console, "info").mockImplementation(() => undefined); // its timings
    try {
      await createWorkspaceStore({}).addDocument({ name: "schema", document: JSON.parse(source) as Record<string, unknown> });
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
    expect(warnings.flat().map((w) => JSON.stringify(w).slice(0, 300))).toEqual([]);
  });
});
