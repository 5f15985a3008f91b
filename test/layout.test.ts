/**
 * The layout rules that keep the dependencies readable (dependency-cruiser over the sources):
 * - no import cycles, type-only imports included;
 * - domain folders of core-api (businesses/, vouchers/, campaigns/ ...) never import resources/
 *   (the Resources API is an adapter over the domain, not the other way round);
 * - shared/ imports nothing of the services;
 * - every table of a service lives in its db/tables/;
 * - no two source files of one package share a file name (a reader finds a module by its name);
 * - the contracts entry of shared/ (`@service/shared`, shared/src/index.ts, and what it imports)
 *   reaches no Node built-in module: clients of the contracts may run anywhere; the Node runtime
 *   entry is `@service/shared/node`;
 * - no product or script file opens a transaction (`.transaction(`, `beginTransaction`, a
 *   `START TRANSACTION` or `BEGIN` statement) outside the transaction runner
 *   (shared/src/node/transaction-runner.ts), which every unit of work that writes goes through.
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

describe("the contracts entry", () => {
  it("reaches no Node built-in module from shared/src/index.ts", () => {
    const bySource = new Map(result.modules.map((m) => [m.source, m]));
    const seen = new Set<string>();
    const builtins: string[] = [];
    const visit = (source: string) => {
      if (seen.has(source)) return;
      seen.add(source);
      for (const d of bySource.get(source)?.dependencies ?? []) {
        if (d.dependencyTypes.includes("core")) builtins.push(`${source} -> ${d.module}`);
        else visit(d.resolved);
      }
    };
    visit("shared/src/index.ts");
    expect(seen.size).toBeGreaterThanOrEqual(3); // index.ts, errors.ts, envelope.ts at least
    expect(builtins).toEqual([]);
  });
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

describe("transactions", () => {
  const RUNNER = path.join("shared", "src", "node", "transaction-runner.ts");
  /** The bench's floor of add-basket: a bare driver transaction is what it measures (never product code). */
  const BARE_FLOOR = path.join("bench", "floors", "bare-sale-transaction.ts");
  /** Code that opens a transaction: drizzle's or mysql2's call, or the statement itself in a string. */
  const OPENS = [/\.transaction\(/, /\bbeginTransaction\b/, /["'`]\s*(START\s+TRANSACTION|BEGIN)\b/i];
  const allFiles = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (["node_modules", "migrations"].includes(e.name) ? [] : allFiles(path.join(dir, e.name))) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
    );
  /** The lines of `file` that open a transaction, comment lines left out. */
  const openings = (file: string) =>
    readFileSync(path.join(ROOT, file), "utf8").split("\n")
      .map((line, i) => ({ line: line.trim(), at: `${file}:${i + 1}` }))
      .filter(({ line }) => !line.startsWith("*") && !line.startsWith("//") && !line.startsWith("/*") && OPENS.some((re) => re.test(line)))
      .map(({ at, line }) => `${at}: ${line}`);

  it("no product or script file opens a transaction outside the transaction runner", () => {
    const files = ["shared/src", "core-api/src", "connector/src", "scripts", "bench"].flatMap(allFiles)
      .filter((f) => !f.endsWith(".test.ts") && !f.includes("test-support") && f !== RUNNER && f !== BARE_FLOOR);
    expect(files.length).toBeGreaterThan(150);
    expect(files.flatMap(openings)).toEqual([]);
  });

  it("sees an opening where there is one (the check can fail)", () => {
    expect(openings(RUNNER).length).toBeGreaterThan(0);
  });
});
