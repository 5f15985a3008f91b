/**
 * `npm run cluster` survives what CI and crashes leave behind: `up` on a running cluster changes
 * nothing, and after a kill -9 of every node (each grastate.dat then says safe_to_bootstrap: 0,
 * so no node may form the cluster on its own) `up` forms it again from the most advanced node,
 * with every committed row on every node. Leaves the cluster up.
 */
import { readFileSync } from "node:fs";
import mysql from "mysql2/promise";
import { afterAll, describe, expect, it } from "vitest";
import { NODES } from "../../scripts/cluster/layout.ts";
import { nodePid, savedState } from "../../scripts/cluster/nodes.ts";
import { runScript, scriptEnv } from "../helpers/processes.ts";
import { NODE_URLS, queryNode, sleep } from "./cluster-helpers.ts";

const DB = `test_cluster_script_${Date.now().toString(36)}`;
const cluster = (command: string) => runScript("scripts/cluster.ts", [command], scriptEnv({}), 400_000);

afterAll(async () => {
  const conn = await mysql.createConnection(NODE_URLS[0]!);
  await conn.query(`DROP DATABASE IF EXISTS \`${DB}\``);
  await conn.end();
});

describe("npm run cluster", () => {
  it("up on a running cluster keeps every node process", async () => {
    const before = NODES.map(nodePid);
    const up = await cluster("up");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(NODES.map(nodePid)).toEqual(before);
    expect((await cluster("status")).code).toBe(0);
  });

  it("up after a kill -9 of every node forms the cluster again, nothing committed lost", async () => {
    const conn = await mysql.createConnection(NODE_URLS[1]!);
    await conn.query(`CREATE DATABASE \`${DB}\``);
    await conn.query(`CREATE TABLE \`${DB}\`.t (id INT PRIMARY KEY AUTO_INCREMENT, v INT NOT NULL)`);
    for (let i = 0; i < 50; i++) await conn.query(`INSERT INTO \`${DB}\`.t (v) VALUES (?)`, [i]);
    await conn.end();

    for (const node of NODES) process.kill(Number(readFileSync(node.pidFile, "utf8").trim()), "SIGKILL");
    for (let i = 0; i < 50 && NODES.some((n) => nodePid(n) !== undefined); i++) await sleep(100);
    expect(NODES.map((n) => savedState(n)?.safeToBootstrap)).toEqual([false, false, false]);
    expect((await cluster("status")).code).toBe(1);

    const up = await cluster("up");
    expect(up.code, up.stdout + up.stderr).toBe(0);
    expect(up.stdout).toMatch(/forms the cluster again/);
    for (const url of NODE_URLS) {
      const [row] = await queryNode<{ n: unknown; s: unknown }>(url, DB, "SELECT COUNT(*) AS n, SUM(v) AS s FROM t");
      expect([Number(row!.n), Number(row!.s)], url).toEqual([50, (49 * 50) / 2]);
    }
  });
});
