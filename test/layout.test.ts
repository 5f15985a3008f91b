/**
 * The layout rules that keep the dependencies readable (dependency-cruiser over the sources):
 * - no import cycles, type-only imports included;
 * - domain folders of core-api (businesses/, vouchers/, campaigns/ ...) never import resources/
 *   (the Resources API is an adapter over the domain, not the other way round);
 * - core-api's product modules import only down its layers (CORE_LAYERS, highest first): the
 *   entries, the app, the APIs, authentication, the domains, db/, http/, the base (crypto/ and
 *   logger.ts); a module may import its own layer and any below, never one above;
 * - shared/ imports nothing of the services;
 * - every table of a service lives in its db/tables/;
 * - no two source files of one package share a file name (a reader finds a module by its name);
 * - the contracts of shared/ (the entry `@service/shared`, shared/src/index.ts and what it
 *   imports, and every other module outside shared/src/node/) import no Node built-in module and
 *   no package that does I/O (a database driver, metrics, logging, HTTP servers): clients of the
 *   contracts may run anywhere; the Node runtime layer both services share is shared/src/node/
 *   (`@service/shared/node`);
 * - no product or script file opens a transaction (`.transaction(`, `beginTransaction`, a
 *   `START TRANSACTION` or `BEGIN` statement) outside the transaction runner
 *   (shared/src/node/transaction-runner.ts), which every unit of work that writes goes through.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["shared", "core-api", "connector"] as const;
const CORE_DOMAIN = "^core-api/src/(?!resources/|internal/|app\\.ts|main\\.)";
/** The contracts: shared/src outside the runtime layer (node/), tests left out. */
const CONTRACTS = "^shared/src/(?!node/)";
/** Packages that do I/O (or carry process state), which only the runtime layer and the services import. */
const IO_PACKAGES = ["mysql2", "drizzle-orm", "prom-client", "pino", "pino-http", "express", "hono", "@hono/node-server", "node-cron"];
const IO_PACKAGE_PATH = `node_modules/(${IO_PACKAGES.join("|")})/`;

/**
 * core-api's layers, highest first, each a path pattern; the domains are every folder or file no
 * other layer names (businesses/, vouchers/, chains/, config.ts ...).
 */
const CORE_LAYERS: ReadonlyArray<readonly [name: string, path: string]> = [
  ["entries", "^core-api/src/main\\."],
  ["app", "^core-api/src/(app\\.ts|metrics/)"],
  ["apis", "^core-api/src/(internal|resources|health)/"],
  ["auth", "^core-api/src/auth/"],
  ["domains", "^core-api/src/(?!main\\.|app\\.ts|metrics/|internal/|resources/|health/|auth/|db/|http/|crypto/|logger\\.ts)"],
  ["db", "^core-api/src/db/"],
  ["http", "^core-api/src/http/"],
  ["base", "^core-api/src/(crypto/|logger\\.ts)"],
];

/** One rule per layer: its product modules import no layer above it. */
const LAYER_RULES = CORE_LAYERS.slice(1).map(([name, path], i) => ({
  name: `layer-${name}-imports-down`,
  severity: "error" as const,
  from: { path, pathNot: "\\.test\\.ts$|test-support" },
  to: { path: CORE_LAYERS.slice(0, i + 1).map(([, above]) => `(${above})`).join("|") },
}));

let result: ICruiseResult;

/** Cruises `dirs` under `baseDir` with the layout rules. */
async function cruiseLayout(baseDir: string, dirs: string[]): Promise<ICruiseResult> {
  const out = await cruise(
    dirs,
    {
      baseDir,
      validate: true,
      tsPreCompilationDeps: true,
      // node_modules is not followed, but imports of packages are recorded (contracts-do-no-io)
      exclude: { path: "/migrations/" },
      doNotFollow: { path: "node_modules" },
      ruleSet: {
        // type-only imports count: a cycle of types still ties the modules' meanings together
        forbidden: [
          { name: "no-cycle", severity: "error", from: {}, to: { circular: true } },
          { name: "domain-never-imports-resources", severity: "error", from: { path: CORE_DOMAIN, pathNot: "\\.test\\.ts$" }, to: { path: "^core-api/src/resources/" } },
          { name: "shared-is-contracts-only", severity: "error", from: { path: "^shared/" }, to: { path: "^(core-api|connector)/" } },
          { name: "contracts-import-no-node-builtin", severity: "error", from: { path: CONTRACTS, pathNot: "\\.test\\.ts$" }, to: { dependencyTypes: ["core"] } },
          { name: "contracts-do-no-io", severity: "error", from: { path: CONTRACTS, pathNot: "\\.test\\.ts$" }, to: { path: IO_PACKAGE_PATH } },
          ...LAYER_RULES,
        ],
      },
    },
    // Workspace packages resolve through their package.json `exports` to the .ts sources.
    { exportsFields: ["exports"], conditionNames: ["import", "default"], extensions: [".ts", ".js"] } as never,
  );
  return out.output as ICruiseResult;
}

beforeAll(async () => {
  result = await cruiseLayout(ROOT, PACKAGES.map((p) => `${p}/src`));
}, 120_000);

const show = (v: IViolation) => `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(" -> ")})` : ""}`;

describe("module dependencies", () => {
  it("reads every source module of the three packages", () => {
    const sources = result.modules.filter((m) => /^(shared|core-api|connector)\/src\/.*\.ts$/.test(m.source));
    expect(sources.length).toBeGreaterThan(150);
  });

  const RULES = ["no-cycle", "domain-never-imports-resources", "shared-is-contracts-only", "contracts-import-no-node-builtin", "contracts-do-no-io", ...LAYER_RULES.map((r) => r.name)];
  for (const rule of RULES) {
    it(`has no ${rule} violation`, () => {
      expect(result.summary.violations.filter((v) => v.rule.name === rule).map(show)).toEqual([]);
    });
  }
});

describe("core-api's layers", () => {
  const product = () => result.modules.map((m) => m.source).filter((s) => /^core-api\/src\/.*\.ts$/.test(s) && !/\.test\.ts$|test-support/.test(s));

  it("put every product module in exactly one layer, and every layer holds one", () => {
    const modules = product();
    expect(modules.length).toBeGreaterThan(150);
    const layersOf = (source: string) => CORE_LAYERS.filter(([, path]) => new RegExp(path).test(source)).map(([name]) => name);
    expect(modules.filter((m) => layersOf(m).length !== 1).map((m) => `${m}: ${layersOf(m).join(", ")}`)).toEqual([]);
    for (const [name] of CORE_LAYERS) expect(modules.some((m) => layersOf(m)[0] === name), name).toBe(true);
  });

  it("refuse an import climbing a layer (the rules can fail)", () => {
    const rule = (name: string) => LAYER_RULES.find((r) => r.name === `layer-${name}-imports-down`)!;
    const climbs = (from: string, to: string, name: string) => new RegExp(rule(name).from.path).test(from) && new RegExp(rule(name).to.path).test(to);
    expect(climbs("core-api/src/db/client.ts", "core-api/src/auth/request-auth.ts", "db")).toBe(true);
    expect(climbs("core-api/src/auth/request-auth.ts", "core-api/src/resources/engine.ts", "auth")).toBe(true);
    expect(climbs("core-api/src/businesses/search.ts", "core-api/src/db/client.ts", "domains")).toBe(false);
  });

  it("report a climb in real files as a violation (the rules can fail, cruised)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "layout-"));
    try {
      const files: Record<string, string> = {
        "core-api/src/auth/secret.ts": "export const secret = 1;\n",
        "core-api/src/db/climb.ts": 'import { secret } from "../auth/secret.ts";\nexport const climbed = secret;\n',
        "core-api/src/resources/adapter.ts": "export const adapter = 2;\n",
        "core-api/src/businesses/reads.ts": 'import { adapter } from "../resources/adapter.ts";\nexport const read = adapter;\n',
        "shared/src/contract.ts": 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
      };
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const cruised = await cruiseLayout(dir, ["core-api/src", "shared/src"]);
      expect(cruised.summary.violations.map(show).sort()).toEqual([
        "contracts-import-no-node-builtin: shared/src/contract.ts -> fs",
        "domain-never-imports-resources: core-api/src/businesses/reads.ts -> core-api/src/resources/adapter.ts",
        "layer-db-imports-down: core-api/src/db/climb.ts -> core-api/src/auth/secret.ts",
        "layer-domains-imports-down: core-api/src/businesses/reads.ts -> core-api/src/resources/adapter.ts",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("hooks the domains call back", () => {
  /**
   * The layers above the domains (entries, app, APIs, auth): they hand a domain's write its hooks
   * (`onSaved`, run in the write's transaction: users/save-user.ts) as the domains build them
   * (webshopSyncHook, phoneVerificationStepOf), never a function of their own, which the domain
   * would call back up the layers.
   */
  const ABOVE_DOMAINS = CORE_LAYERS.slice(0, CORE_LAYERS.findIndex(([name]) => name === "domains")).map(([, p]) => new RegExp(p));
  /** An `onSaved` hook written as a function right there: `onSaved: async (...) =>`, `onSaved = (...)`, `onSaved(...) {`. */
  const INLINE_HOOK = /\bonSaved\s*(?:[:=]\s*(?:async\b|function\b|\(|\w+\s*=>)|\()/;
  const inlineHooks = (file: string, text: string) =>
    text.split("\n").flatMap((line, i) => (INLINE_HOOK.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));

  it("no module above the domains writes a hook of its own", () => {
    const files = result.modules.map((m) => m.source)
      .filter((s) => /^core-api\/src\/.*\.ts$/.test(s) && !/\.test\.ts$|test-support/.test(s) && ABOVE_DOMAINS.some((re) => re.test(s)));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((f) => inlineHooks(f, readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });

  it("sees one where there is one (the check can fail)", () => {
    expect(inlineHooks("x.ts", "    onSaved: async (tx, saved) => {")).toHaveLength(1);
    expect(inlineHooks("x.ts", "  const onSaved = (tx) => write(tx);")).toHaveLength(1);
    expect(inlineHooks("x.ts", "    onSaved: allOnSaved(phone.onSaved, webshopSync),")).toEqual([]);
    // and the domain's own hook is one: the check would see it were it above the domains
    expect(inlineHooks("u.ts", readFileSync(path.join(ROOT, "core-api/src/users/phone-verification-step.ts"), "utf8"))).toHaveLength(1);
  });
});

describe("the contracts entry", () => {
  /** What `source` reaches, followed through shared/ and the services: its Node built-ins and I/O packages. */
  const reached = (source: string) => {
    const bySource = new Map(result.modules.map((m) => [m.source, m]));
    const seen = new Set<string>();
    const found: string[] = [];
    const visit = (from: string) => {
      if (seen.has(from)) return;
      seen.add(from);
      for (const d of bySource.get(from)?.dependencies ?? []) {
        if (d.dependencyTypes.includes("core")) found.push(`${from} -> node:${d.module.replace(/^node:/, "")}`);
        else if (new RegExp(IO_PACKAGE_PATH).test(d.resolved)) found.push(`${from} -> ${d.module}`);
        else if (!d.resolved.includes("node_modules/")) visit(d.resolved);
      }
    };
    visit(source);
    return { seen, found };
  };

  it("reaches no Node built-in module and no I/O package from shared/src/index.ts", () => {
    const { seen, found } = reached("shared/src/index.ts");
    expect(seen.size).toBeGreaterThanOrEqual(3); // index.ts, errors.ts, envelope.ts at least
    expect(found).toEqual([]);
  });

  it("sees them where they are (the checks can fail): the runtime layer's entry reaches both", () => {
    const { found } = reached("shared/src/node/node-entry.ts");
    expect(found).toContain("shared/src/node/worker-processes.ts -> node:cluster");
    for (const pkg of ["mysql2/promise", "prom-client", "drizzle-orm"]) expect(found.some((f) => f.endsWith(` -> ${pkg}`)), pkg).toBe(true);
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
