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
import { SECRET_KEY_FILE_VARIABLES } from "@service/shared/node";

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

describe("README, shell blocks", () => {
  const blocks = [...readme.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it("take the services' URLs from CORE and CONNECTOR, set once from the port variables", () => {
    const definitions = blocks.filter((b) => /^CORE=/m.test(b));
    expect(definitions).toHaveLength(1);
    expect(definitions[0]).toContain('CORE="http://127.0.0.1:${CORE_API_PORT:-8080}"; CONNECTOR="http://127.0.0.1:${CONNECTOR_PORT:-8081}"');
    const hardCoded = blocks.flatMap((b) => b.split("\n")).filter((line) => !/^CORE=/.test(line) && /localhost:\d|127\.0\.0\.1:808[01]\b/.test(line));
    expect(hardCoded).toEqual([]);
    expect(blocks.filter((b) => b.includes("$CORE/")).length).toBeGreaterThanOrEqual(3);
  });

  it("points the webhook example at a receiver on this machine, not an outside host", () => {
    const webhook = blocks.find((b) => b.includes("/resources/webhook"))!;
    expect(webhook).toMatch(/"target_url":"http:\/\/127\.0\.0\.1:(\d+)\/sms"/);
    const port = /127\.0\.0\.1:(\d+)\/sms/.exec(webhook)![1];
    expect(webhook).toContain(`.listen(${port},"127.0.0.1")`);
  });
});
