/**
 * No product function is longer than 60 lines and no product file longer than 300: a reader takes
 * one in at a glance, and a longer one splits into named helpers or modules. Product code is every
 * tracked non-test `.ts` file under core-api/src, connector/src, shared/src and scripts;
 * `*.test.ts`, the test-support modules and the tests' fixtures (`fixtures/`, the bad-input
 * walker's hand-written oracle of the spec's field tables) are test code, which neither rule
 * reads. Every function counts: declarations, methods, constructors, accessors, function
 * expressions and arrow functions, nested ones included; a function's lines run from its first
 * token (its docstring left out) to its closing brace, the functions nested in it included. A
 * failure lists each offender as `file:line name (N lines)`, or `file (N lines)`.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = ["core-api/src", "connector/src", "shared/src", "scripts"];
/** The most lines a product function may have. */
const MAX_LINES = 60;
/** The most lines a product file may have. */
const MAX_FILE_LINES = 300;

/** The tracked product `.ts` files of FOLDERS, relative to the repository root. */
function productSources(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...FOLDERS], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts") && !f.includes("test-support") && !f.includes("/fixtures/"));
}

/** What a reader calls function `node`: its name, the variable or property it is assigned to, or `<anonymous>`. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) return parent.name.getText(source);
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText(source).slice(0, 40)}>`;
  return "<anonymous>";
}

/** Each function with a body in `text` longer than MAX_LINES, as `at:line name (N lines)`. */
function longFunctions(at: string, text: string): string[] {
  const source = ts.createSourceFile(at, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push(`${at}:${first + 1} ${functionName(fn, source)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The line count of `text` as an editor shows it (a last line ended by a newline opens no new one). */
function lineCount(text: string): number {
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** Each of `files` (path and text) longer than MAX_FILE_LINES, as `path (N lines)`. */
function longFiles(files: ReadonlyArray<{ at: string; text: string }>): string[] {
  return files.flatMap(({ at, text }) => {
    const lines = lineCount(text);
    return lines > MAX_FILE_LINES ? [`${at} (${lines} lines)`] : [];
  });
}

describe("file length", () => {
  it(`no product file is longer than ${MAX_FILE_LINES} lines`, () => {
    const files = productSources();
    expect(files.length).toBeGreaterThan(300);
    const found = longFiles(files.map((at) => ({ at, text: readFileSync(path.join(ROOT, at), "utf8") })));
    expect(found, `${found.length} files over ${MAX_FILE_LINES} lines:\n  ${found.join("\n  ")}\n`).toEqual([]);
  });

  it("counts lines as an editor does and names each file over the limit (the check can fail)", () => {
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
    expect(longFiles([
      { at: "fits.ts", text: "x\n".repeat(MAX_FILE_LINES) },
      { at: "long.ts", text: "x\n".repeat(MAX_FILE_LINES + 1) },
      { at: "long-unended.ts", text: `${"x\n".repeat(MAX_FILE_LINES)}x` },
    ])).toEqual([`long.ts (${MAX_FILE_LINES + 1} lines)`, `long-unended.ts (${MAX_FILE_LINES + 1} lines)`]);
  });
});

describe("function length", () => {
  it(`no product function is longer than ${MAX_LINES} lines`, () => {
    const files = productSources();
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((f) => longFunctions(f, readFileSync(path.join(ROOT, f), "utf8")));
    expect(found, `${found.length} functions over ${MAX_LINES} lines:\n  ${found.join("\n  ")}\n`).toEqual([]);
  });

  it("measures every kind of function, nested ones too, from its first token to its last (the check can fail)", () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  step(${i});`).join("\n");
    const sample = [
      "/** docstring lines do not count */",
      `export function declared() {\n${body(61)}\n}`,
      `function fits() {\n${body(60)}\n}`,
      `const arrow = async () => {\n${body(61)}\n};`,
      `class Service {\n  method() {\n${body(61)}\n  }\n  get value() {\n${body(61)}\n  }\n}`,
      `run(function () {\n${body(61)}\n});`,
      `function outer() {\n  const inner = () => {\n${body(59)}\n  };\n  return inner;\n}`,
    ].join("\n");
    const found = longFunctions("sample.ts", sample).map((f) => f.replace(/^sample\.ts:\d+ /, ""));
    expect(found).toEqual([
      "declared (61 lines)", "arrow (61 lines)", "method (61 lines)", "value (61 lines)", "<callback of run> (61 lines)", "outer (62 lines)",
    ]);
  });
});
