/**
 * The toolchain is honest about the Node it needs: every Node that package.json `engines` admits
 * is one that each package the workspaces depend on directly (dev tools included: vitest,
 * dependency-cruiser, the OpenAPI linters ...) declares it runs on, the Node running the tests is
 * one of them, and `.npmrc` makes npm refuse any other at install (`engine-strict`), so CI
 * (`.ci/run`, `npm ci`) fails at its first step rather than halfway through the suite.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as {
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const root = readJson("package.json");
const ENGINES = root.engines?.node ?? "";

/** Every package a workspace (or the root) depends on directly, by name. */
function directPackages(): string[] {
  const manifests = [root, ...["shared", "core-api", "connector"].map((w) => readJson(`${w}/package.json`))];
  const names = manifests.flatMap((m) => [...Object.keys(m.dependencies ?? {}), ...Object.keys(m.devDependencies ?? {})]);
  return [...new Set(names)].filter((n) => !n.startsWith("@service/")).sort();
}

/** The packages whose declared `engines.node` leaves out a Node that `range` admits. */
function narrowerThan(range: string): string[] {
  return directPackages().flatMap((name) => {
    const declared = readJson(`node_modules/${name}/package.json`).engines?.node;
    return declared === undefined || semver.subset(range, declared) ? [] : [`${name}: ${declared}`];
  });
}

describe("engines", () => {
  it("admit only Nodes every directly used package runs on", () => {
    expect(semver.validRange(ENGINES), ENGINES).not.toBeNull();
    expect(directPackages().length).toBeGreaterThan(30);
    expect(narrowerThan(ENGINES)).toEqual([]);
  });

  it("can fail: a range wider than the tools support is caught (dependency-cruiser 17 leaves out Node 23)", () => {
    expect(narrowerThan(">=20.19")).toContain('dependency-cruiser: ^20.12||^22||>=24');
  });

  it("include the Node running these tests, and npm enforces them at install", () => {
    expect(semver.satisfies(process.version, ENGINES), `${process.version} vs ${ENGINES}`).toBe(true);
    expect(readFileSync(path.join(ROOT, ".npmrc"), "utf8")).toMatch(/^engine-strict\s*=\s*true$/m);
  });
});
