/**
 * Slims an image's production node_modules (the images' `deps` stage, after `npm ci --omit=dev`):
 * drops the named packages and every package nothing else needs, read from package-lock.json, and
 * puts back the files asked for with `--keep`.
 *
 *   node docker/drop-packages.ts @scalar/api-reference --keep @scalar/api-reference/dist/browser/standalone.js
 *
 * Why: /docs serves one file of @scalar/api-reference, its standalone browser bundle (3.5 MB;
 * core-api/src/resources/docs-asset.node.ts), yet the package brings the Vue components, icons and
 * clients it was built from (about 120 MB of the 294 MB). Every other install (`npm ci`, and
 * `npm ci --omit=dev` outside Docker) keeps the package whole, so /docs works from any checkout.
 * A kept file's package keeps its package.json (its `exports` map and license), so
 * `require.resolve("@scalar/api-reference/browser/standalone.js")` still finds it.
 *
 * Node 24 (type stripping), no dependencies: it runs in the deps stage before anything else is there.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** A `packages` entry of package-lock.json (lockfileVersion 2 or 3). */
interface LockEntry {
  link?: boolean;
  dev?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * The installed packages (their lock keys, `node_modules/...`) that only `drop` need: what the
 * root and its workspaces reach through production, optional and required peer dependencies,
 * without the dependency edges to `drop`, is kept; every other non-dev package goes.
 * @param packages package-lock.json's `packages`
 * @param drop package names, for example `@scalar/api-reference`
 * @returns lock keys, outermost first (a nested one is inside an outer one that also goes)
 */
export function unneededPackages(packages: Record<string, LockEntry>, drop: readonly string[]): string[] {
  const reached = new Set<string>();
  const roots = Object.keys(packages).filter((key) => !key.includes("node_modules/"));
  const pending = [...roots];
  while (pending.length > 0) {
    const key = pending.pop()!;
    if (reached.has(key)) continue;
    reached.add(key);
    const entry = packages[key]!;
    for (const name of neededNames(entry)) {
      if (drop.includes(name)) continue;
      const found = resolveFrom(packages, key, name);
      if (found) pending.push(packages[found]!.link ? linkTarget(packages, found) : found);
    }
  }
  return Object.keys(packages)
    .filter((key) => key.includes("node_modules/") && !packages[key]!.dev && !packages[key]!.link && !reached.has(key))
    .sort((a, b) => a.length - b.length);
}

/** The names an installed package needs at run time: dependencies, optional ones, required peers. */
function neededNames(entry: LockEntry): string[] {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !entry.peerDependenciesMeta?.[name]?.optional);
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

/** Node's lookup: `<from>/node_modules/<name>`, then each enclosing node_modules up to the root's. */
function resolveFrom(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const at = dir.lastIndexOf("/node_modules/");
    dir = at >= 0 ? dir.slice(0, at) : "";
  }
}

/** The workspace folder a workspace link (`node_modules/@service/x`) points at. */
function linkTarget(packages: Record<string, LockEntry>, key: string): string {
  return (packages[key] as { resolved?: string }).resolved ?? key;
}

/**
 * Deletes from `root`/node_modules what unneededPackages names, keeping the `keep` files
 * (`<package>/<path inside it>`) and their packages' package.json.
 * @returns the lock keys deleted
 * @throws Error when a `keep` file is not installed (a changed bundle path must not ship a broken /docs)
 */
export function dropPackages(root: string, drop: readonly string[], keep: readonly string[]): string[] {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const saved = mkdtempSync(path.join(tmpdir(), "kept-"));
  const kept = keep.flatMap((file) => {
    const name = file.startsWith("@") ? file.split("/").slice(0, 2).join("/") : file.split("/")[0]!;
    return [file, `${name}/package.json`];
  });
  for (const file of kept) {
    const from = path.join(root, "node_modules", file);
    if (!existsSync(from)) throw new Error(`${file} is not installed: nothing to keep`);
    mkdirSync(path.dirname(path.join(saved, file)), { recursive: true });
    cpSync(from, path.join(saved, file));
  }
  const deleted = unneededPackages(lock.packages, drop);
  for (const key of deleted) {
    rmSync(path.join(root, key), { recursive: true, force: true });
    // a scope folder (node_modules/@vue) left empty goes too
    const parent = path.dirname(path.join(root, key));
    if (path.basename(parent).startsWith("@") && existsSync(parent) && readdirSync(parent).length === 0) rmdirSync(parent);
  }
  for (const file of kept) {
    mkdirSync(path.dirname(path.join(root, "node_modules", file)), { recursive: true });
    cpSync(path.join(saved, file), path.join(root, "node_modules", file));
  }
  rmSync(saved, { recursive: true, force: true });
  return deleted;
}

/** `node docker/drop-packages.ts <package>... [--keep <package>/<file>]...`, in the folder of package-lock.json. */
function main(args: string[]): void {
  const drop: string[] = [];
  const keep: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--keep") keep.push(args[++i] ?? "");
    else drop.push(args[i]!);
  }
  if (drop.length === 0 || keep.includes("")) {
    console.error("usage: node docker/drop-packages.ts <package>... [--keep <package>/<file>]...");
    process.exit(2);
  }
  const deleted = dropPackages(process.cwd(), drop, keep);
  console.log(`dropped ${deleted.length} packages (${drop.join(", ")} and what only they need)${keep.length ? `, kept ${keep.join(", ")}` : ""}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
