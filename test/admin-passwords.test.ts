/**
 * `npm run admin -- set-password` resets a lost admin password (argon2id, and that admin's
 * sessions end), and `add-admin --password` for an existing admin is refused with nothing changed:
 * the CLI (in this process: helpers/admin-cli.ts) against a throwaway database, the admins logging
 * in through the core app.
 */
import mysql from "mysql2/promise";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../core-api/src/app.ts";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { createAdmin, createChain, grantAccess } from "../core-api/src/db/seed.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { loginAs, TEST_SECRET_KEY } from "./helpers/core.ts";
import { scriptEnv } from "./helpers/processes.ts";
import { runAdminInProcess } from "./helpers/admin-cli.ts";

const coreDb = throwawayDatabaseName("admin_pw_core");
const env = scriptEnv({ DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: coreDb, SERVICE_SECRET_KEY: TEST_SECRET_KEY });
let core: CoreDatabase;
let sql: mysql.Connection;
/** the clerk's chain, and the chain of another admin whose session must survive the clerk's reset */
let chainId = 0;
let otherChain = 0;
/** the clerk's password hash as created ("clerk-password-1") */
let clerkHash = "";

beforeAll(async () => {
  await createMigratedDatabase("core", coreDb);
  core = openCoreDatabase(TEST_DATABASE_URL, coreDb);
  chainId = await createChain(core.db, "Second Chain");
  otherChain = await createChain(core.db, "Other Chain");
  const clerk = await createAdmin(core.db, { username: "clerk@second.example", password: "clerk-password-1" });
  await grantAccess(core.db, clerk, chainId, { read: true, write: true });
  const other = await createAdmin(core.db, { username: "other@example.com", password: "other-password" });
  await grantAccess(core.db, other, otherChain, { read: true });
  sql = await mysql.createConnection(TEST_DATABASE_URL);
  [{ password_hash: clerkHash }] = await rows(`SELECT password_hash FROM \`${coreDb}\`.admin_users WHERE username = ?`, ["clerk@second.example"]);
}, 60_000);

// set-password changes the clerk's password: every test starts with "clerk-password-1" again
beforeEach(async () => {
  await rows(`UPDATE \`${coreDb}\`.admin_users SET password_hash = ? WHERE username = ?`, [clerkHash, "clerk@second.example"]);
});

afterAll(async () => {
  await sql?.end();
  await core?.close();
  await dropDatabase(coreDb);
});

const app = () => createApp({ db: core.db, config: loadCoreConfig({ DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: coreDb }) });

const login = (username: string, password: string) => loginAs((path, init) => app().request(path, init), username, password);

async function rows(query: string, params: unknown[] = []): Promise<any[]> {
  const [result] = await sql.query(query, params);
  return result as any[];
}

const admin = (...args: string[]) => runAdminInProcess(args, env);

describe("admin passwords", () => {
  it("add-admin with --password for an existing admin says so, exits 1 and changes nothing", async () => {
    const before = await rows(`SELECT a.password_hash, p.\`read\`, p.\`write\`, p.super_user FROM \`${coreDb}\`.admin_users a LEFT JOIN \`${coreDb}\`.admin_chain_permissions p ON p.admin_user_id = a.id WHERE a.username = ?`, ["clerk@second.example"]);
    const result = await admin("add-admin", "--chain-id", String(chainId), "--username", "clerk@second.example", "--password", "another-password", "--access", "super_user");
    expect([result.code, result.stdout]).toEqual([1, ""]);
    expect(result.stderr.trim()).toMatch(/^refused: admin clerk@second\.example exists already; nothing changed \(.*use set-password/);
    expect(await rows(`SELECT a.password_hash, p.\`read\`, p.\`write\`, p.super_user FROM \`${coreDb}\`.admin_users a LEFT JOIN \`${coreDb}\`.admin_chain_permissions p ON p.admin_user_id = a.id WHERE a.username = ?`, ["clerk@second.example"])).toEqual(before);
    expect((await login("clerk@second.example", "another-password")).status).toBe(401);
    expect((await login("clerk@second.example", "clerk-password-1")).status).toBe(200);
  }, 60_000);

  it("set-password sets an argon2id password, ends the admin's sessions and says so; a generated one is printed once", async () => {
    const old = await login("clerk@second.example", "clerk-password-1");
    expect(old.status).toBe(200);
    const other = await login("other@example.com", "other-password");
    expect(other.status).toBe(200);
    const chainHeaders = { "X-Service-Chain-ID": String(chainId) };
    const result = await admin("set-password", "--username", "clerk@second.example", "--password", "new-clerk-password");
    expect([result.code, result.stderr]).toEqual([0, ""]);
    expect(result.stdout.trim()).toMatch(/^admin clerk@second\.example \(id \d+\): password changed; [1-9]\d* sessions? ended$/);
    expect(result.stdout).not.toContain("new-clerk-password");
    const [row] = await rows(`SELECT password_hash FROM \`${coreDb}\`.admin_users WHERE username = ?`, ["clerk@second.example"]);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // the old session is gone, the old password no longer works, the new one does
    expect((await app().request(`/resources/chain/${chainId}`, { headers: { ...old.headers, ...chainHeaders } })).status).toBe(401);
    expect((await login("clerk@second.example", "clerk-password-1")).status).toBe(401);
    expect((await login("clerk@second.example", "new-clerk-password")).status).toBe(200);
    // another admin's session is untouched
    expect((await app().request(`/resources/chain/${otherChain}`, { headers: { ...other.headers, "X-Service-Chain-ID": String(otherChain) } })).status).toBe(200);

    const generated = await admin("set-password", "--username", "clerk@second.example");
    expect(generated.code).toBe(0);
    const password = /admin password {2}(\S+) {2}\(generated: shown only now\)/.exec(generated.stdout)?.[1];
    expect(password).toBeDefined();
    expect((await login("clerk@second.example", password!)).status).toBe(200);
  }, 60_000);

  it("set-password refuses an unknown admin or a short password, and needs --username, writing nothing", async () => {
    const before = await rows(`SELECT username, password_hash FROM \`${coreDb}\`.admin_users ORDER BY id`);
    const unknown = await admin("set-password", "--username", "nobody@example.com", "--password", "long-enough-1");
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, "refused: there is no admin nobody@example.com"]);
    const short = await admin("set-password", "--username", "clerk@second.example", "--password", "short");
    expect([short.code, short.stderr.trim()]).toEqual([1, "refused: the admin password must be at least 8 characters"]);
    const none = await admin("set-password", "--password", "long-enough-1");
    expect([none.code, none.stderr.trim()]).toEqual([2, "--username is required (see --help)"]);
    expect(await rows(`SELECT username, password_hash FROM \`${coreDb}\`.admin_users ORDER BY id`)).toEqual(before);
  }, 60_000);
});
