/**
 * The Galera cluster's configuration, checked without starting it (the cluster tests start it:
 * `npm run test:cluster`): haproxy accepts docker/galera/haproxy.cfg with the addresses of
 * `npm run cluster`, and docker/compose.yml's cluster profile sets every variable that file
 * reads, builds the health check from a script that exists, and runs three nodes.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROXY } from "../scripts/cluster/layout.ts";
import { HAPROXY, proxyEnvironment } from "../scripts/cluster/proxy.ts";
import { ROOT } from "./helpers/processes.ts";

const config = readFileSync(PROXY.config, "utf8");
/** The environment variables haproxy.cfg reads ("${NAME}"). */
const variables = [...new Set([...config.matchAll(/"\$\{([A-Z0-9_]+)\}"/g)].map((m) => m[1]!))].sort();

describe("docker/galera/haproxy.cfg", () => {
  it("reads its addresses from the environment, and npm run cluster sets each", () => {
    expect(variables.length).toBeGreaterThanOrEqual(9);
    expect(Object.keys(proxyEnvironment()).sort()).toEqual(variables);
  });

  it("has one writer and two backups, each with a health check, closing sessions on a node marked down", () => {
    const servers = config.split("\n").filter((l) => /^\s*server node\d/.test(l));
    expect(servers).toHaveLength(3);
    expect(servers.map((s) => /\bbackup\b/.test(s))).toEqual([false, true, true]);
    for (const s of servers) expect(s).toMatch(/\bcheck\b/);
    expect(config).toMatch(/option httpchk/);
    expect(config).toMatch(/on-marked-down shutdown-sessions/);
  });

  it.skipIf(!existsSync(HAPROXY))("is valid for haproxy (haproxy -c)", () => {
    const result = spawnSync(HAPROXY, ["-c", "-f", PROXY.config], { env: { ...process.env, ...proxyEnvironment() }, encoding: "utf8" });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});

describe("docker/compose.yml, cluster profile", () => {
  const lines = readFileSync(path.join(ROOT, "docker/compose.yml"), "utf8").split("\n");
  /** The lines of service `name` (two-space indent, up to the next top-level key). */
  const block = (name: string) => {
    const start = lines.indexOf(`  ${name}:`);
    expect(start, name).toBeGreaterThan(0);
    const end = lines.findIndex((l, i) => i > start && /^ {0,2}\S/.test(l));
    return lines.slice(start + 1, end).join("\n");
  };

  it("runs three Galera nodes, the health check and the proxy, only in that profile", () => {
    for (const name of ["galera1", "galera2", "galera3", "galera-check", "galera-proxy"]) expect(block(name)).toMatch(/profiles: \[cluster\]/);
    expect(block("galera1")).toMatch(/--wsrep-new-cluster/);
    expect(block("galera2")).not.toMatch(/--wsrep-new-cluster/);
    expect(block("galera1")).toMatch(/--wsrep_auto_increment_control=ON/);
  });

  it("gives the proxy every variable of haproxy.cfg, and the health check a script that exists", () => {
    const proxy = block("galera-proxy");
    expect(proxy).toContain("./galera/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
    const set = [...proxy.matchAll(/^ {6}([A-Z0-9_]+):/gm)].map((m) => m[1]!).sort();
    expect(set).toEqual(variables);
    const script = /"(scripts\/cluster\/[^"]+\.ts)"/.exec(block("galera-check"))?.[1];
    expect(script && existsSync(path.join(ROOT, script))).toBe(true);
  });
});
