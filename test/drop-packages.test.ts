/**
 * docker/drop-packages.ts, which slims the images' node_modules: what it drops is computed from
 * package-lock.json (the real one, and small made-up ones), and a run on a folder deletes exactly
 * that and keeps the files asked for where require.resolve finds them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dropPackages, unneededPackages } from "../docker/drop-packages.ts";
import { ROOT } from "./helpers/processes.ts";

type Lock = Parameters<typeof unneededPackages>[0];

/** A made-up lock: the workspace needs `a` and `docs`; `docs` alone needs `b` (with a nested `d`) and the optional peer `q`. */
const LOCK: Lock = {
  "": { dependencies: {} },
  app: { dependencies: { a: "1", docs: "1" } },
  "node_modules/@ws/app": { link: true, resolved: "app" } as Lock[string],
  "node_modules/a": { dependencies: { c: "1" }, peerDependencies: { p: "1" } },
  "node_modules/docs": { dependencies: { b: "1", c: "1", "@scope/icons": "1" }, peerDependencies: { q: "1" } },
  "node_modules/b": { dependencies: { d: "2" } },
  "node_modules/b/node_modules/d": {},
  "node_modules/d": {},
  "node_modules/c": {},
  "node_modules/p": {},
  "node_modules/q": {},
  "node_modules/@scope/icons": {},
  "node_modules/vitest": { dev: true },
};

describe("unneededPackages", () => {
  it("drops the package and what only it needs; keeps what something else needs, dev packages aside", () => {
    expect(unneededPackages(LOCK, ["docs"]).sort()).toEqual([
      "node_modules/@scope/icons", "node_modules/b", "node_modules/b/node_modules/d", "node_modules/d", "node_modules/docs", "node_modules/q",
    ]);
    // outermost first: a nested package is deleted with the one around it
    const order = unneededPackages(LOCK, ["docs"]);
    expect(order.indexOf("node_modules/b")).toBeLessThan(order.indexOf("node_modules/b/node_modules/d"));
  });

  it("resolves as Node does: a nested copy before the outer one; nothing named, only what nothing reaches goes", () => {
    expect(unneededPackages(LOCK, [])).toEqual(["node_modules/d"]); // b uses its nested d, nothing the outer one
  });

  it("on the real lock: the docs package's own dependencies go, every run-time dependency of the services stays", () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Lock };
    const dropped = new Set(unneededPackages(lock.packages, ["@scalar/api-reference"]));
    for (const gone of ["@scalar/api-reference", "@scalar/icons", "@scalar/api-client", "vue"]) expect(dropped.has(`node_modules/${gone}`), gone).toBe(true);
    const needed = ["shared", "core-api", "connector"].flatMap((w) => Object.keys((JSON.parse(readFileSync(path.join(ROOT, w, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies));
    for (const name of needed.filter((n) => n !== "@scalar/api-reference" && !n.startsWith("@service/"))) {
      expect(dropped.has(`node_modules/${name}`), name).toBe(false);
    }
    for (const key of dropped) expect(lock.packages[key]!.dev, key).not.toBe(true);
    // argon2's native binary (an optional dependency) stays
    expect([...dropped].filter((k) => k.includes("argon2"))).toEqual([]);
  });
});

describe("dropPackages", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A folder with LOCK's packages installed, each with a package.json. */
  function install(): string {
    root = mkdtempSync(path.join(tmpdir(), "drop-packages-"));
    writeFileSync(path.join(root, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: LOCK }));
    for (const key of Object.keys(LOCK).filter((k) => k.startsWith("node_modules/") && !LOCK[k]!.link)) {
      mkdirSync(path.join(root, key), { recursive: true });
      writeFileSync(path.join(root, key, "package.json"), JSON.stringify({ name: key.split("node_modules/").at(-1), exports: { "./bundle.js": "./dist/bundle.js" } }));
    }
    mkdirSync(path.join(root, "node_modules/docs/dist"));
    writeFileSync(path.join(root, "node_modules/docs/dist/bundle.js"), "window.Docs = {};");
    writeFileSync(path.join(root, "node_modules/docs/dist/other.js"), "unused");
    return root;
  }

  it("deletes what only the dropped package needs and puts the kept file back where require.resolve finds it", () => {
    install();
    const deleted = dropPackages(root, ["docs"], ["docs/dist/bundle.js"]);
    expect(deleted).toContain("node_modules/docs");
    for (const gone of ["b", "d", "q", "@scope/icons", "@scope"]) expect(existsSync(path.join(root, "node_modules", gone)), gone).toBe(false);
    for (const kept of ["a", "c", "p", "vitest"]) expect(existsSync(path.join(root, "node_modules", kept)), kept).toBe(true);
    expect(existsSync(path.join(root, "node_modules/docs/dist/other.js"))).toBe(false);
    const resolved = createRequire(path.join(root, "index.js")).resolve("docs/bundle.js");
    expect(readFileSync(resolved, "utf8")).toBe("window.Docs = {};");
  });

  it("refuses a kept file that is not installed, before deleting anything", () => {
    install();
    expect(() => dropPackages(root, ["docs"], ["docs/dist/renamed.js"])).toThrow("docs/dist/renamed.js is not installed: nothing to keep");
    expect(existsSync(path.join(root, "node_modules/docs/dist/other.js"))).toBe(true);
    expect(existsSync(path.join(root, "node_modules/b"))).toBe(true);
  });
});
