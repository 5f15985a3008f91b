/**
 * `npm run mysql84 -- up|down|status` (scripts/mysql84-server.sh): a second mariadbd with MySQL
 * 8.4-like settings, in a data directory and on a port of this test's own, started as the
 * `mysql` user; `up` twice is harmless, `up` after a kill -9 brings it back with its rows, `down`
 * stops it by its pid file and nothing else (the shared server keeps answering).
 */
import { existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import mysql from "mysql2/promise";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "./helpers/databases.ts";
import { closedPort, run, scriptEnv } from "./helpers/processes.ts";

const dir = `/var/tmp/service-mysql84-test-${randomBytes(4).toString("hex")}`;
const SCRIPT = "scripts/mysql84-server.sh";
/** mariadbd switches to the mysql user only when started as root (CI and this machine). */
const canStart = process.getuid?.() === 0 && existsSync("/usr/sbin/mariadbd");

let port = 0;
const server = (...args: string[]) => run("bash", [SCRIPT, ...args], scriptEnv({ MYSQL84_DIR: dir, MYSQL84_PORT: String(port) }), 120_000);

afterAll(async () => {
  if (port) await server("down", "--wipe");
});

describe("npm run mysql84", () => {
  it("answers --help with its usage and refuses an unknown command with status 2", async () => {
    const help = await server("--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run mysql84 -- up\|down\|status/);
    const bad = await server("restart");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Usage:");
  });

  it.skipIf(!canStart)("starts its own server with 8.4's id and sql_mode settings; up is idempotent, survives a kill -9, down stops only it", async () => {
    port = await closedPort();
    const up = await server("up");
    expect(up.stderr).toBe("");
    expect(up.code).toBe(0);
    expect(up.stdout).toContain(`DATABASE_URL=mysql://root@127.0.0.1:${port}`);
    const pid = Number(readFileSync(`${dir}/mysqld.pid`, "utf8"));
    // running as the mysql user, not root
    expect(Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1])).not.toBe(0);

    const url = `mysql://root@127.0.0.1:${port}`;
    let conn = await mysql.createConnection(url);
    const [[settings]] = (await conn.query(
      "SELECT @@auto_increment_increment AS inc, @@auto_increment_offset AS off, @@innodb_autoinc_lock_mode AS lock_mode, @@GLOBAL.sql_mode AS mode",
    )) as any;
    expect(settings).toEqual({
      inc: 2, off: 2, lock_mode: 2,
      mode: "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION",
    });
    await conn.query("CREATE DATABASE kept");
    await conn.query("CREATE TABLE kept.t (id int AUTO_INCREMENT PRIMARY KEY, v int)");
    await conn.query("INSERT INTO kept.t (v) VALUES (1), (2)");
    expect((await conn.query("SELECT id FROM kept.t ORDER BY id"))[0]).toEqual([{ id: 2 }, { id: 4 }]);
    await conn.end();

    const again = await server("up");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`runs already (pid ${pid}`);

    process.kill(pid, "SIGKILL");
    await waitUntil(() => !existsSync(`/proc/${pid}`));
    expect((await server("status")).code).toBe(3);
    const back = await server("up");
    expect(back.code, back.stderr).toBe(0);
    conn = await mysql.createConnection(url);
    expect((await conn.query("SELECT id FROM kept.t ORDER BY id"))[0]).toEqual([{ id: 2 }, { id: 4 }]);
    await conn.end();
    const status = await server("status");
    expect(status.stdout).toContain("AUTO_INCREMENT_OFFSET = 2");

    const newPid = Number(readFileSync(`${dir}/mysqld.pid`, "utf8"));
    const down = await server("down");
    expect(down.stdout).toContain("mysql84 server stopped");
    expect(existsSync(`/proc/${newPid}`)).toBe(false);
    expect(existsSync(`${dir}/mysqld.pid`)).toBe(false);
    // the shared server was not touched
    const shared = await mysql.createConnection(TEST_DATABASE_URL);
    expect((await shared.query("SELECT 1 AS ok"))[0]).toEqual([{ ok: 1 }]);
    await shared.end();
  }, 180_000);
});

/** Waits until `done()` holds (checked every 50 ms, up to 10 s). */
async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error("the condition never held");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
