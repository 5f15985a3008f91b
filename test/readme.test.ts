/**
 * The README documents every environment variable the services and the demo seed read, and
 * names no variable the code does not read.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONNECTOR_VARIABLES } from "../connector/src/config.ts";
import { CORE_VARIABLES } from "../core-api/src/config.ts";
import { DEMO_SEED_VARIABLES } from "../scripts/lib/demo-seed.ts";
import { DEMO_WIRING_VARIABLES } from "../scripts/lib/demo-wiring.ts";
import { SECRET_KEY_FILE_VARIABLES } from "@service/shared/secret-key-file";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const configuration = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("## Operating"));

describe("README, Configuration", () => {
  const read = new Set([...CORE_VARIABLES, ...CONNECTOR_VARIABLES, ...DEMO_SEED_VARIABLES, ...DEMO_WIRING_VARIABLES, ...SECRET_KEY_FILE_VARIABLES]);

  it("documents every variable the code reads", () => {
    expect(read.size).toBeGreaterThan(15);
    expect([...read].filter((name) => !configuration.includes(`\`${name}\``))).toEqual([]);
  });

  it("documents no variable the code does not read", () => {
    const documented = [...configuration.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1]!);
    expect(documented.length).toBeGreaterThan(15);
    expect(documented.filter((name) => !read.has(name))).toEqual([]);
  });
});
