/**
 * `npm run demo` as a user runs it ("registers a few shop customers through the
 * Magento tables, runs the sync, shows them as members in the platform, changes one in the app and
 * shows it in the shop, and logs a shopper in with webshop credentials"): `npm start` on throwaway
 * databases (core-api and the connector in a child process, the demo chain wired both ways as it
 * wires it), then `npm run demo -- --steps 6` twice on the same databases. The outcomes are read
 * where they land: the members in the core database, the app-side change in the Magento table,
 * the shopper's session in the core database; and the demo's printed lines must say the same.
 *
 * Also the demo's `--steps` option (scripts/lib/options.ts stepsOption).
 */
import mysql from "mysql2/promise";
import { afterAll, describe, expect, it } from "vitest";
import { parseFlags, stepsOption } from "../scripts/lib/options.ts";
import { SHOP_CUSTOMERS, SHOP_PASSWORD } from "../scripts/demo/webshop-sync.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { run, scriptEnv, start } from "./helpers/processes.ts";

const names: string[] = [];
afterAll(() => Promise.all(names.map(dropDatabase)));

describe("stepsOption (npm run demo -- --steps)", () => {
  const steps = (...argv: string[]) => [...stepsOption(parseFlags(argv), "steps", 7)].sort((a, b) => a - b);

  it("is every step without the flag, else the listed steps and ranges", () => {
    expect(steps()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(steps("--steps", "6")).toEqual([6]);
    expect(steps("--steps=4,6")).toEqual([4, 6]);
    expect(steps("--steps", "3-5")).toEqual([3, 4, 5]);
    expect(steps("--steps", "1, 4-6,4")).toEqual([1, 4, 5, 6]);
  });

  it.each([["0"], ["8"], ["2-8"], ["5-3"], ["six"], ["6,"], ["-6"], ["1.5"]])("refuses %s, naming the flag", (value) => {
    expect(() => steps("--steps", value)).toThrow(`--steps must list steps 1-7, for example 6, 4,6 or 3-6 (got ${value})`);
  });

  it("refuses the flag without a value", () => {
    expect(() => steps("--steps")).toThrow("(got no value)");
  });
});

describe("npm run demo -- --steps 6 against npm start", () => {
  it("makes the shop's registrations members, brings an app-side change into the shop and logs a shopper in with the webshop password; a second run does it again without duplicates", async () => {
    const core = throwawayDatabaseName("demo_core");
    const shop = throwawayDatabaseName("demo_shop");
    names.push(core, shop);
    // Migrated already (copies of the run's templates): npm start's migration finds nothing to do,
    // and seeds and wires the demo chain on them as on a first start. Its chains are numbered
    // from 5, as a server with another auto_increment_offset would: the demo finds the demo
    // chain as npm start numbered it.
    await Promise.all([createMigratedDatabase("core", core), createMigratedDatabase("connector", shop)]);
    const setup = await mysql.createConnection(`${TEST_DATABASE_URL}/${core}`);
    await setup.query("ALTER TABLE chains AUTO_INCREMENT = 5").finally(() => setup.end());
    const secretKey = "demo-test-secret-key-of-at-least-32-characters";
    const adminPassword = "demo-admin-password";
    const npm = start("npm", ["start"], scriptEnv({
      DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: core, WEBSHOP_DB_NAME: shop, CORE_API_PORT: "0", CONNECTOR_PORT: "0",
      SERVICE_SECRET_KEY: secretKey, SEED_ADMIN_PASSWORD: adminPassword, LOG_LEVEL: "warn",
      // the demo's own pass is the one under test: no scheduled pass may take the customers first
      SYNC_CRON: "off",
    }));
    const coreDb = await mysql.createConnection(`${TEST_DATABASE_URL}/${core}`);
    const shopDb = await mysql.createConnection(`${TEST_DATABASE_URL}/${shop}`);
    const rows = async (conn: mysql.Connection, sql: string, params: unknown[] = []) => (await conn.query(sql, params))[0] as any[];
    const emails = SHOP_CUSTOMERS.map((c) => c.email);
    try {
      const coreApiUrl = (await npm.waitFor(/core-api\s+(http:\/\/\S+)/, 60_000))[1]!;
      const connectorUrl = (await npm.waitFor(/connector\s+(http:\/\/\S+)/))[1]!;
      const chainId = Number(/^CHAIN=(\d+)$/m.exec(npm.output())?.[1]);
      expect(await rows(coreDb, "SELECT id FROM chains")).toEqual([{ id: chainId }]);
      expect(chainId).toBeGreaterThanOrEqual(5);
      // What a user gives the demo (README, "The demo: webshop and platform in sync"): the
      // services' URLs, the admin npm start printed, the webshop database and the secret key.
      // The core database is not among them: the demo reaches the platform over HTTP only.
      // The first run finds the demo chain in the webshop database; the second is given CHAIN as
      // npm start printed it.
      const demo = (chain: Record<string, string> = {}) => run("npm", ["run", "demo", "--", "--steps", "6"], scriptEnv({
        CORE_API_URL: coreApiUrl, CONNECTOR_URL: connectorUrl, SEED_ADMIN_USERNAME: "admin@demo.example", SEED_ADMIN_PASSWORD: adminPassword,
        DATABASE_URL: TEST_DATABASE_URL, WEBSHOP_DB_NAME: shop, SERVICE_SECRET_KEY: secretKey, ...chain,
      }), 60_000);

      // The shop's customers and the platform's members of the demo's emails, as the databases hold them.
      const customers = () => rows(shopDb, "SELECT entity_id, email, lastname FROM customer_entity WHERE email IN (?) ORDER BY email", [emails]);
      const members = () => rows(coreDb,
        "SELECT id, username, first_name, last_name, member_number, authentication_point_identifier AS ap, signup_channel FROM users WHERE chain_id = ? AND username IN (?) ORDER BY username",
        [chainId, emails]);
      const shopperSessions = (userId: number) => rows(coreDb, "SELECT kind, chain_id FROM sessions WHERE user_id = ? AND kind = 'end_user'", [userId]);
      expect(await customers()).toEqual([]);
      expect(await members()).toEqual([]);

      // First run: registers, syncs, changes, logs in.
      const first = await demo();
      expect(first.stderr).not.toMatch(/demo failed/);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const out1 = first.stdout;
      expect(out1).toContain(`chain     ${chainId}\nsteps     6 (--steps)`);
      expect(out1).not.toMatch(/^1\. |^\s+! /m); // no other step ran, and no check failed

      const shopRows = await customers();
      expect(shopRows.map((r) => r.email)).toEqual([...emails].sort());
      const memberRows = await members();
      expect(memberRows).toHaveLength(3);
      for (const c of shopRows) {
        const given = SHOP_CUSTOMERS.find((s) => s.email === c.email)!;
        const member = memberRows.find((m) => m.username === c.email);
        // a member of the chain, linked to its webshop customer, with the shop's data and a member number
        expect(member).toMatchObject({ ap: String(c.entity_id), first_name: given.firstname, signup_channel: "platform" });
        expect(member.member_number).toMatch(/^[1-9]\d{7}$/); // from the demo chain's default range
        expect(out1).toContain(`${c.email.padEnd(28)} customer ${String(c.entity_id).padStart(4)} registered now`);
        expect(out1).toContain(`GET /internal/get-user?authentication_point_identifier=${c.entity_id} -> user ${member.id}, member ${member.member_number}, signup_channel platform`);
      }
      // the demo chain starts with its default member-number range: step 6 creates none
      expect(out1).not.toContain("created (POST /resources/member_number_range)");
      expect(out1).toContain("(of the demo's: 3 sent)");

      // The app-side change (alter-user) is in the Magento row, and in the platform.
      const changed = SHOP_CUSTOMERS[0];
      expect(shopRows.find((r) => r.email === changed.email)!.lastname).toBe(`${changed.lastname}-de Boer`);
      expect(memberRows.find((m) => m.username === changed.email)!.last_name).toBe(`${changed.lastname}-de Boer`);
      expect(out1).toMatch(new RegExp(`PUT /internal/alter-user last_name "${changed.lastname}-de Boer" \\(was "${changed.lastname}"\\) -> customer_entity\\.lastname "${changed.lastname}-de Boer" after \\d+ ms`));
      expect(out1).toContain("second pass: 0 changed, 0 of the demo's sent");

      // The shopper's login through the webshop app opened a session for that member.
      const shopper = memberRows.find((m) => m.username === SHOP_CUSTOMERS[1].email)!;
      expect(await shopperSessions(shopper.id)).toEqual([{ kind: "end_user", chain_id: chainId }]);
      expect(out1).toContain(`${SHOP_CUSTOMERS[1].email} / ${SHOP_PASSWORD} -> HTTP 200, shopper session of user ${shopper.id}; a wrong password -> HTTP 401`);
      expect(out1).toContain("OK: shop registrations became members, the app-side change reached the shop, the webshop password opened a shopper session");
      expect(out1).toContain("demo finished: all checks passed");

      // Second run on the same databases: nothing registered twice, nothing sent again, the name
      // changed back, another session.
      const second = await demo({ CHAIN: String(chainId) });
      expect(second.stderr).not.toMatch(/demo failed/);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      const out2 = second.stdout;
      expect(out2).not.toMatch(/^\s+! /m);
      const shopRows2 = await customers();
      expect(shopRows2.map((r) => r.entity_id)).toEqual(shopRows.map((r) => r.entity_id));
      const memberRows2 = await members();
      expect(memberRows2.map((m) => [m.id, m.member_number, m.ap])).toEqual(memberRows.map((m) => [m.id, m.member_number, m.ap]));
      for (const c of shopRows2) expect(out2).toContain(`${c.email.padEnd(28)} customer ${String(c.entity_id).padStart(4)} found (registered by an earlier run)`);
      expect(out2).toContain("(of the demo's: 0 sent, all in sync already)");
      expect(out2).not.toContain("member-number range");
      expect(shopRows2.find((r) => r.email === changed.email)!.lastname).toBe(changed.lastname);
      expect(memberRows2.find((m) => m.username === changed.email)!.last_name).toBe(changed.lastname);
      expect(out2).toMatch(new RegExp(`last_name "${changed.lastname}" \\(was "${changed.lastname}-de Boer"\\) -> customer_entity\\.lastname "${changed.lastname}" after`));
      expect(await shopperSessions(shopper.id)).toHaveLength(2);
      expect(out2).toContain(`-> HTTP 200, shopper session of user ${shopper.id}`);
      expect(out2).toContain("demo finished: all checks passed");
    } finally {
      await coreDb.end();
      await shopDb.end();
      npm.child.kill("SIGTERM");
      await npm.exited();
    }
  }, 120_000);
});
