/**
 * The Docker files, read as text (there is no Docker engine to build them here): production images
 * without dev dependencies on a maintained Node LTS, run under an init, starting the service the
 * file is named after; compose passes only variables the code reads.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BlockList } from "node:net";
import { CONNECTOR_VARIABLES, parseConnectorConfig } from "../connector/src/config.ts";
import { isTrustedProxy, parseTrustedProxies } from "@service/shared/node";
import { CORE_VARIABLES } from "../core-api/src/config.ts";
import { DEMO_SEED_VARIABLES } from "../scripts/lib/demo-seed.ts";
import { DEMO_WIRING_VARIABLES } from "../scripts/lib/demo-wiring.ts";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ROOT, run } from "./helpers/processes.ts";

/** End of support of the Node LTS lines an image may use (nodejs.org release schedule). */
const NODE_LTS_END: Record<number, string> = { 22: "2027-04-30", 24: "2028-04-30" };
const SERVICES = ["core-api", "connector"] as const;

interface Instruction {
  keyword: string;
  args: string;
}

/** The instructions of a Dockerfile, comments dropped, continuation lines joined, per stage. */
function stages(file: string): Instruction[][] {
  const text = readFileSync(path.join(ROOT, file), "utf8").replace(/\\\n/g, " ");
  const out: Instruction[][] = [];
  for (const line of text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"))) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (keyword!.toUpperCase() === "FROM") out.push([]);
    out.at(-1)!.push({ keyword: keyword!.toUpperCase(), args: args! });
  }
  return out;
}

/** The variable each image's service port is read from (its Dockerfile's ENV). */
const PORT_VARIABLE = { "core-api": "CORE_API_PORT", connector: "CONNECTOR_PORT" } as const;

/**
 * Runs a health check script (`node -e <script>`) against a local server on the port it reads
 * from `portVariable`: it exits 0 when GET /ready answers 200, 1 when it answers 503 or nothing
 * listens, and asks for /ready only.
 */
async function expectReadyCheck(script: string, portVariable: string): Promise<void> {
  expect(script).not.toMatch(/curl|wget/);
  let status = 200;
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    res.writeHead(req.url === "/ready" ? status : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const check = async (p: number) => (await run(process.execPath, ["-e", script], { PATH: process.env.PATH ?? "", [portVariable]: String(p) }, 10_000)).code;
  try {
    expect(await check(port)).toBe(0);
    status = 503;
    expect(await check(port)).toBe(1);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  expect(await check(port)).toBe(1); // nothing listens
  expect(paths).toEqual(["/ready", "/ready"]);
}

describe.each(SERVICES)("docker/Dockerfile.%s", (service) => {
  const all = stages(`docker/Dockerfile.${service}`);
  const final = all.at(-1)!;
  const runs = all.flat().filter((i) => i.keyword === "RUN").map((i) => i.args);

  it("builds every stage on a maintained Node LTS", () => {
    const bases = all.map((s) => s[0]!.args);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) {
      const major = Number(/^node:(\d+)-/.exec(base)?.[1]);
      expect(NODE_LTS_END[major], `${base} is not a Node LTS line we know the support of`).toBeDefined();
      expect(new Date(NODE_LTS_END[major]!).getTime(), `${base} is out of support`).toBeGreaterThan(Date.now());
    }
  });

  it("installs production dependencies only, from the lock file", () => {
    const installs = runs.filter((r) => /\bnpm (ci|install|i)\b/.test(r));
    expect(installs).toHaveLength(1);
    expect(installs[0]).toMatch(/\bnpm ci --omit=dev\b/);
    const deps = all.find((s) => s.some((i) => i.keyword === "RUN" && i.args.includes("npm ci --omit=dev")))!;
    expect(all.indexOf(deps)).toBeLessThan(all.length - 1); // a build stage, copied into the final one
    const stageName = /\bAS\s+(\S+)/i.exec(deps[0]!.args)?.[1];
    expect(final.filter((i) => i.keyword === "COPY" && i.args.startsWith("--from="))).toEqual([{ keyword: "COPY", args: `--from=${stageName} /app ./` }]);
  });

  it("runs the service with node under tini, not as root, without dev tools", () => {
    expect(final.find((i) => i.keyword === "ENTRYPOINT")?.args).toBe('["/usr/bin/tini", "--"]');
    expect(runs.some((r) => /apt-get install .*\btini\b/.test(r))).toBe(true);
    expect(final.find((i) => i.keyword === "USER")?.args).toBe("node");
    const cmd = JSON.parse(final.find((i) => i.keyword === "CMD")!.args) as string[];
    expect(cmd[0]).toBe("node");
    expect(cmd.slice(-3)).toEqual(["scripts/start.ts", "--service", service]);
    expect(cmd.join(" ")).not.toMatch(/tsx|npx|npm/);
  });

  it("is healthy when /ready answers 200 on the service's port, checked with node (the image has no curl)", async () => {
    const healthcheck = final.find((i) => i.keyword === "HEALTHCHECK")?.args ?? "";
    expect(healthcheck).toMatch(/--start-period=\d+s/);
    const command = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(healthcheck)![1]!) as string[];
    expect(command.slice(0, 2)).toEqual(["node", "-e"]);
    await expectReadyCheck(command[2]!, PORT_VARIABLE[service]);
  });

  it("copies only paths that exist in the repository", () => {
    const sources = all.flat().filter((i) => i.keyword === "COPY" && !i.args.startsWith("--from=")).flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) expect(existsSync(path.join(ROOT, source)), source).toBe(true);
  });
});

describe("docker/compose.yml", () => {
  const lines = readFileSync(path.join(ROOT, "docker/compose.yml"), "utf8").split("\n");

  /** The `environment:` keys and the Dockerfile of a service (compose's block style, two-space indents). */
  function service(name: string): { env: string[]; dockerfile: string | undefined; block: string[] } {
    const start = lines.indexOf(`  ${name}:`);
    expect(start, `service ${name}`).toBeGreaterThan(0);
    const end = lines.findIndex((l, i) => i > start && /^ {0,2}\S/.test(l));
    const block = lines.slice(start + 1, end < 0 ? undefined : end);
    const envStart = block.indexOf("    environment:");
    const env: string[] = [];
    for (const l of block.slice(envStart + 1)) {
      if (/^ {6}#/.test(l)) continue; // a comment between variables
      const m = /^ {6}([A-Z0-9_]+):/.exec(l);
      if (!m) break;
      env.push(m[1]!);
    }
    return { env, dockerfile: /dockerfile:\s*([^\s}]+)/.exec(block.join("\n"))?.[1], block };
  }

  it.each(SERVICES)("builds %s from its Dockerfile and passes only variables the code reads", (name) => {
    const s = service(name);
    expect(s.dockerfile).toBe(`docker/Dockerfile.${name}`);
    // npm start reads the demo seed's and the demo wiring's variables for either service (scripts/start.ts).
    const read = [...(name === "core-api" ? CORE_VARIABLES : CONNECTOR_VARIABLES), ...DEMO_SEED_VARIABLES, ...DEMO_WIRING_VARIABLES];
    expect(s.env.length).toBeGreaterThan(0);
    expect(s.env.filter((v) => !read.includes(v))).toEqual([]);
    expect(s.block.join("\n")).toContain("stop_grace_period: 10s");
  });

  it.each(SERVICES)("checks %s's health on /ready with node", async (name) => {
    const block = service(name).block;
    const at = block.indexOf("    healthcheck:");
    expect(at, `${name} has a healthcheck`).toBeGreaterThan(0);
    const test = /^ {6}test:\s*(\[.*\])$/.exec(block[at + 1]!)?.[1];
    const command = JSON.parse(test!) as string[];
    expect(command.slice(0, 3)).toEqual(["CMD", "node", "-e"]);
    expect(block.slice(at + 1).find((l) => /^ {6}start_period:/.test(l))).toBeDefined();
    await expectReadyCheck(command[3]!, PORT_VARIABLE[name]);
  });

  it("starts the connector once core-api is healthy, not merely started", () => {
    const block = service("connector").block;
    const dependsOn = block.slice(block.indexOf("    depends_on:") + 1).filter((l) => /^ {6}\S/.test(l) && !/^ {6}#/.test(l));
    expect(dependsOn).toContain("      core-api: { condition: service_healthy }");
    expect(dependsOn).toContain("      mysql: { condition: service_healthy }");
  });

  it("makes core-api, and only core-api, the connector's trusted proxy: its fixed address on the compose network", () => {
    const text = lines.join("\n");
    const subnet = /^networks:\n {2}default:\n(?: {4,}.*\n)*? {8}- subnet: (\S+)$/m.exec(text)?.[1];
    expect(subnet, "a default network with a fixed subnet").toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    const coreAddress = /ipv4_address:\s*([\d.]+)/.exec(service("core-api").block.join("\n"))?.[1];
    expect(coreAddress, "core-api's fixed address").toBeDefined();
    const connector = service("connector");
    expect(connector.env).toContain("TRUSTED_PROXIES");
    const trusted = /^ {6}TRUSTED_PROXIES:\s*(.*)$/m.exec(connector.block.join("\n"))![1]!.trim();
    expect(trusted).toBe(coreAddress);
    expect(/ipv4_address/.test(connector.block.join("\n"))).toBe(false); // the connector's own address is Docker's choice

    // The connector reads it as a trusted proxy; the network's gateway (published-port clients
    // arrive through it) and every other address on the network are not trusted.
    const config = parseConnectorConfig({ DATABASE_URL: "mysql://root@mysql:3306", SERVICE_SECRET_KEY: "docker-test-secret-key-of-32-characters", TRUSTED_PROXIES: trusted });
    expect(config.ok).toBe(true);
    if (!config.ok) return;
    expect(config.config.trustedProxies).toEqual([coreAddress]);
    const [network, bits] = subnet!.split("/");
    const inSubnet = new BlockList();
    inSubnet.addSubnet(network!, Number(bits), "ipv4");
    expect(inSubnet.check(coreAddress!, "ipv4")).toBe(true);
    const proxies = parseTrustedProxies(config.config.trustedProxies);
    const host = (n: number) => network!.replace(/\.\d+$/, `.${n}`);
    expect(isTrustedProxy(proxies, coreAddress)).toBe(true);
    expect(isTrustedProxy(proxies, `::ffff:${coreAddress}`)).toBe(true); // as a dual-stack socket reports it
    expect(coreAddress).not.toBe(host(1));
    expect(isTrustedProxy(proxies, host(1))).toBe(false); // the gateway
    expect(isTrustedProxy(proxies, host(Number(coreAddress!.split(".")[3]) + 1))).toBe(false);
  });
});

describe("the images' node_modules (docker/drop-packages.ts in the deps stage)", () => {
  /** The arguments of the drop-packages run of a Dockerfile. */
  const dropArgs = (service: string): string[] => {
    const run = stages(`docker/Dockerfile.${service}`).flat().find((i) => i.keyword === "RUN" && i.args.includes("docker/drop-packages.ts"));
    expect(run, `${service} runs drop-packages`).toBeDefined();
    return /docker\/drop-packages\.ts\s+(.*?)\s*(?:&&|$)/.exec(run!.args)![1]!.split(/\s+/);
  };
  const docsPackages = Object.keys((JSON.parse(readFileSync(path.join(ROOT, "core-api/package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies)
    .filter((name) => name.startsWith("@scalar/"));

  it("the connector's carries none of the docs packages", () => {
    expect(docsPackages.length).toBeGreaterThan(0);
    expect(dropArgs("connector").sort()).toEqual([...docsPackages].sort());
  });

  it("core-api's keeps of @scalar/api-reference only the bundle /docs serves", () => {
    const args = dropArgs("core-api");
    expect(args.filter((a, i) => a !== "--keep" && args[i - 1] !== "--keep")).toEqual(["@scalar/api-reference"]);
    const kept = args.filter((_, i) => args[i - 1] === "--keep");
    // the file docs-asset.node.ts resolves, through the package's exports map
    const asset = readFileSync(path.join(ROOT, "core-api/src/resources/docs-asset.node.ts"), "utf8");
    expect(asset).toContain('"@scalar/api-reference/browser/standalone.js"');
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "node_modules/@scalar/api-reference/package.json"), "utf8")) as { exports: Record<string, string> };
    expect(kept).toEqual([`@scalar/api-reference/${manifest.exports["./browser/standalone.js"]!.replace(/^\.\//, "")}`]);
  });
});

describe(".dockerignore", () => {
  const patterns = readFileSync(path.join(ROOT, ".dockerignore"), "utf8").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));

  it("leaves out tests, benchmarks, installed modules, git and the local secret key", () => {
    expect(patterns).toEqual(expect.arrayContaining(["**/*.test.ts", "test", "bench", "**/node_modules", ".git", ".secret-key"]));
  });

  it("keeps every path the Dockerfiles copy", () => {
    const sources = SERVICES.flatMap((s) => stages(`docker/Dockerfile.${s}`).flat())
      .filter((i) => i.keyword === "COPY" && !i.args.startsWith("--from=")).flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    for (const source of sources) {
      const ignoredBy = patterns.filter((p) => source === p || source.startsWith(`${p}/`) || (p.startsWith("**/*") && source.endsWith(p.slice(4))));
      expect(ignoredBy, source).toEqual([]);
    }
  });
});
