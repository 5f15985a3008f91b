/**
 * Comments point at what a reader has: no source file cites an issue of the tracker, which a
 * reader of the code does not have. A comment or a test name says the reason itself instead.
 * Every tracked `.ts` file under core-api/, connector/, shared/, scripts/, bench/ and test/ is
 * read whole (comments, docstrings and the strings of `describe` / `it` alike); a failure lists
 * each reference as `file:line: text`.
 *
 * A reference is an issue number ("issue" and a number, "#" allowed, "issues" and two numbers) or
 * an issue by its title ("issue" and a quoted title, a colon allowed). Neither matches the words
 * a program legitimately uses: zod's `issue.path`, "issued", "issuer", "issues a code".
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = ["core-api", "connector", "shared", "scripts", "bench", "test"];

/** What cites an issue: by number, by numbers, or by its quoted title. */
const REFERENCES = [/\bissue\s+#?\d/i, /\bissues\s+#?\d+(\s*,|\s+and)\s*#?\d/i, /\bissue:?\s+"/i];

/** The tracked `.ts` files of FOLDERS, relative to the repository root. */
function trackedSources(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...FOLDERS], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((f) => f.endsWith(".ts") && !f.split("/").includes("node_modules"));
}

/** Each line of `text` that cites an issue, as `at:line: text`. */
function references(at: string, text: string): string[] {
  return text.split("\n").flatMap((line, i) => (REFERENCES.some((re) => re.test(line)) ? [`${at}:${i + 1}: ${line.trim()}`] : []));
}

describe("issue references", () => {
  it("no tracked source file cites an issue in a comment or a test name", () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((f) => references(f, readFileSync(path.join(ROOT, f), "utf8")));
    const byFile = [...new Set(found.map((r) => r.slice(0, r.indexOf(":"))))];
    expect(found, `issue references in ${byFile.length} files:\n  ${byFile.join("\n  ")}\n`).toEqual([]);
  });

  it("finds a reference where there is one and nothing in ordinary words (the check can fail)", () => {
    // Built from parts, so that this file does not cite an issue itself.
    const cited = [`(${"issue"} 12: the search took seven round trips)`, `${"Issue"} #7`, `(${"issues"} 10 and 11)`,
      `${"issues"} 3, 4`, `(${"issue"}: "Deno")`, `(${"issue"} "Operate", CLIs)`];
    for (const line of cited) expect(references("sample.ts", line), line).toHaveLength(1);
    const ordinary = ["const issue = error.issues[0]!;", "if (issue.code === \"invalid_type\")", "the transaction issues a code",
      "jwt_issuer: 255 characters", "issued 12 tokens", "issues 2 codes to one number", "zod 4 issues do not carry the input"];
    for (const line of ordinary) expect(references("sample.ts", line), line).toEqual([]);
  });
});
