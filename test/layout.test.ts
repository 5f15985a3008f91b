/**
 * The layout rules that keep the dependencies readable (dependency-cruiser over the sources):
 * - no import cycles, type-only imports included;
 * - domain folders of core-api (businesses/, vouchers/, campaigns/ ...) never import resources/
 *   (the Resources API is an adapter over the domain, not the other way round);
 * - shared/ imports nothing of the services;
 * - every table of a service lives in its db/tables/;
 * - no two source files of one package share a file name (a reader finds a module by its name).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["shared", "core-api", "connector"] as const;
const CORE_DOMAIN = "^core-api/src/(?!resources/|internal/|app\\.ts|main\\.)";

let result: ICruiseResult;

beforeAll(async () => {
  const out = await cruise(
    PACKAGES.map((p) => `${p}/src`),
    {
      baseDir: ROOT,
      validate: true,
      tsPreCompilationDeps: true,
      exclude: { path: "node_modules|migrations" },
      doNotFollow: { path: "node_modules" },
      ruleSet: {
        // type-only imports count: a cycle of types still ties the modules' meanings together
        forbidden: [
          { name: "no-cycle", severity: "error", from: {}, to: { circular: true } },
          { name: "domain-never-imports-resources", severity: "error", from: { path: CORE_DOMAIN, pathNot: "\\.test\\.ts$" }, to: { path: "^core-api/src/resources/" } },
          { name: "shared-is-contracts-only", severity: "error", from: { path: "^shared/" }, to: { path: "^(core-api|connector)/" } },
        ],
      },
    },
    // Workspace packages resolve through their package.json `exports` to the .ts sources.
    { exportsFields: ["exports"], conditionNames: ["import", "default"], extensions: [".ts", ".js"] } as never,
  );
  result = out.output as ICruiseResult;
}, 120_000);

const show = (v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`;

describe("module dependencies", () => {
  it("reads every source module of the three packages", () => {
    const sources = result.modules.filter((m) => /^(shared|core-api|connector)\/src\/.*\.ts$/.test(m.source));
    expect(sources.length).toBeGreaterThan(150);
  });

  for (const rule of ["no-cycle", "domain-never-imports-resources", "shared-is-contracts-only"]) {
    it(`has no ${rule} violation`, () => {
      expect(result.summary.violations.filter((v) => v.rule.name === rule).map(show)).toEqual([]);
    });
  }
});

describe("files", () => {
  const sourceFiles = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === "migrations" ? [] : sourceFiles(path.join(dir, e.name))) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
    );

  for (const pkg of PACKAGES) {
    it(`${pkg}: no two source files share a name`, () => {
      const files = sourceFiles(`${pkg}/src`);
      expect(files.length).toBeGreaterThan(5);
      const byName = new Map<string, string[]>();
      for (const f of files) byName.set(path.basename(f), [...(byName.get(path.basename(f)) ?? []), f]);
      expect([...byName.values()].filter((fs) => fs.length > 1)).toEqual([]);
    });
  }

  for (const pkg of ["core-api", "connector"] as const) {
    it(`${pkg}: every table is declared in db/tables/`, () => {
      // A test may declare a table of its own to exercise a mechanism; the product's are in db/tables/.
      const outside = sourceFiles(`${pkg}/src`).filter(
        (f) => !f.endsWith(".test.ts") && !f.includes(`${path.sep}db${path.sep}tables${path.sep}`) && /\bmysqlTable\(/.test(readFileSync(path.join(ROOT, f), "utf8")),
      );
      expect(outside).toEqual([]);
    });
  }
});
