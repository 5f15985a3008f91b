/**
 * `npm run admin` sets up a second tenant without SQL: the CLI against throwaway databases, then
 * the new admins log in through the core app and the rows are checked; refusals write nothing.
 * Most cases run the CLI in this process (helpers/admin-cli.ts: the code the entry runs, with its
 * environment and output given); the first and the usage-error cases run the real
 * script in a process of its own, so its exit statuses and output are pinned end to end.
 */
import { openSecretBox, SecretBoxError } from "@service/shared/secret-box";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../core-api/src/app.ts";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase, type CoreDatabase } from "../core-api/src/db/client.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { seedConnector } from "../connector/src/db/seed.ts";
import { createChain, seedDemoChain } from "../core-api/src/db/seed.ts";
import { createMigratedDatabase } from "./helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./helpers/databases.ts";
import { loginAs, TEST_SECRET_KEY } from "./helpers/core.ts";
import { closedPort, runScript, scriptEnv } from "./helpers/processes.ts";
import { runAdminInProcess } from "./helpers/admin-cli.ts";
import { readPlatformLinks } from "../connector/src/sync/platform-link.ts";
import { OPERATOR_CHAIN_SETTINGS } from "../core-api/src/chains/operator-settings.ts";
import { readPhoneLimits } from "../core-api/src/users/phone-verification-limits.ts";
import { createCampaign } from "../core-api/src/campaigns/campaign-repository.ts";
import { setChainAuthenticationPoint } from "./../scripts/admin/authentication-point-setup.ts";
import { mapWebsiteToChain } from "../scripts/admin/website-mapping.ts";

const coreDb = throwawayDatabaseName("admin_core");
const shopDb = throwawayDatabaseName("admin_shop");
const env = scriptEnv({ DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: coreDb, WEBSHOP_DB_NAME: shopDb, SERVICE_SECRET_KEY: TEST_SECRET_KEY });
let core: CoreDatabase;
let sql: mysql.Connection;
/** the demo chain's id: what the database handed out (not necessarily 1) */
let demoChainId: number;

beforeAll(async () => {
  await createMigratedDatabase("core", coreDb);
  await createMigratedDatabase("connector", shopDb);
  core = openCoreDatabase(TEST_DATABASE_URL, coreDb);
  // the demo world npm start seeds: the demo chain on website `base`
  const demo = await seedDemoChain(core.db, {
    adminUsername: "demo@example.com", adminPassword: "demo-password", appHostname: "shop.localhost",
    shopperUsername: "shopper@example.com", shopperPassword: "shopper-password",
  });
  demoChainId = demo!.chainId;
  const shop = openConnectorDatabase(TEST_DATABASE_URL, shopDb);
  await seedConnector(shop.db, { chainId: demoChainId });
  await shop.close();
  sql = await mysql.createConnection(TEST_DATABASE_URL);
}, 60_000);

afterAll(async () => {
  await sql?.end();
  await core?.close();
  await dropDatabase(coreDb);
  await dropDatabase(shopDb);
});

const app = () => createApp({ db: core.db, config: loadCoreConfig({ DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: coreDb }) });

const login = (username: string, password: string) => loginAs((path, init) => app().request(path, init), username, password);

async function rows(query: string, params: unknown[] = []): Promise<any[]> {
  const [result] = await sql.query(query, params);
  return result as any[];
}

const admin = (...args: string[]) => runAdminInProcess(args, env);
/** The real script (`npm run admin`'s entry) in a process of its own. */
const adminScript = (...args: string[]) => runScript("scripts/admin.ts", args, env);

/** A chain of the test's own (no admin, app or website), made straight in the database: no test leans on another's. */
const ownChain = (name: string) => createChain(core.db, name);

describe("npm run admin", () => {
  it("create-chain makes a chain with its super-user admin and app hostnames; the admin logs in", async () => {
    const result = await adminScript("create-chain", "--name", "Second Chain", "--admin-username", "boss@second.example",
      "--app-hostname", "Shop.Second.example", "--app-hostname", "m.second.example");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const chainId = Number(/^chain (\d+) created: Second Chain$/m.exec(result.stdout)?.[1]);
    expect(chainId).toBeGreaterThan(0);
    expect(chainId).not.toBe(demoChainId);
    const password = /admin password\s+(\S+)\s+\(generated: shown only now\)/.exec(result.stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const session = await login("boss@second.example", password!);
    expect(session.status).toBe(200);
    const res = await app().request(`/resources/chain/${chainId}`, { headers: { ...session.headers, "X-Service-Chain-ID": String(chainId) } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).results).toMatchObject({ id: chainId, name: "Second Chain" });
    // super user on the new chain only: the demo chain stays out of sight
    const other = await app().request(`/resources/chain/${demoChainId}`, { headers: { ...session.headers, "X-Service-Chain-ID": String(demoChainId) } });
    expect(other.status).toBe(404);

    expect(await rows(`SELECT hostname FROM \`${coreDb}\`.apps WHERE chain_id = ? ORDER BY hostname`, [chainId]))
      .toEqual([{ hostname: "m.second.example" }, { hostname: "shop.second.example" }]);
    expect(await rows(`SELECT super_user FROM \`${coreDb}\`.admin_chain_permissions p JOIN \`${coreDb}\`.admin_users a ON a.id = p.admin_user_id WHERE a.username = ?`, ["boss@second.example"]))
      .toEqual([{ super_user: 1 }]);
  }, 60_000);

  it("create-chain refuses a hostname another chain has, writing nothing", async () => {
    const before = await rows(`SELECT COUNT(*) AS n FROM \`${coreDb}\`.chains`);
    const result = await admin("create-chain", "--name", "Third", "--admin-username", "x@third.example", "--admin-password", "third-password",
      "--app-hostname", "shop.localhost");
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`refused: app hostname shop.localhost already belongs to chain ${demoChainId}`);
    expect(await rows(`SELECT COUNT(*) AS n FROM \`${coreDb}\`.chains`)).toEqual(before);
    expect(await rows(`SELECT id FROM \`${coreDb}\`.admin_users WHERE username = 'x@third.example'`)).toEqual([]);
  }, 60_000);

  it("add-admin adds an admin with the given levels, who logs in; a given password is never printed", async () => {
    const chainId = await ownChain("Clerk Chain");
    const result = await admin("add-admin", "--chain-id", String(chainId), "--username", "clerk@second.example",
      "--password", "clerk-password-1", "--access", "read,write");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`admin clerk@second.example (id `);
    expect(result.stdout).toContain(`has read, write on chain ${chainId}`);
    expect(result.stdout).not.toContain("clerk-password-1");

    const session = await login("clerk@second.example", "clerk-password-1");
    expect(session.status).toBe(200);
    const res = await app().request(`/resources/chain/${chainId}`, { headers: { ...session.headers, "X-Service-Chain-ID": String(chainId) } });
    expect(res.status).toBe(200);
    expect(await rows(`SELECT \`read\`, \`write\`, \`delete\`, super_user FROM \`${coreDb}\`.admin_chain_permissions p JOIN \`${coreDb}\`.admin_users a ON a.id = p.admin_user_id WHERE a.username = ?`, ["clerk@second.example"]))
      .toEqual([{ read: 1, write: 1, delete: 0, super_user: 0 }]);
  }, 60_000);

  it("add-admin refuses an unknown chain or level, writing nothing", async () => {
    const unknownChain = await admin("add-admin", "--chain-id", "99", "--username", "ghost@example.com", "--password", "ghost-password");
    expect(unknownChain.code).toBe(1);
    expect(unknownChain.stderr.trim()).toBe("refused: there is no chain 99");
    const badLevel = await admin("add-admin", "--chain-id", String(demoChainId), "--username", "ghost@example.com", "--access", "read,root");
    expect(badLevel.code).toBe(2);
    expect(badLevel.stderr).toContain("unknown access level root");
    expect(await rows(`SELECT id FROM \`${coreDb}\`.admin_users WHERE username = 'ghost@example.com'`)).toEqual([]);
  }, 60_000);

  it("map-website creates the chain's website with its store group and view and maps it", async () => {
    const chainId = await ownChain("Mapped Chain");
    const result = await admin("map-website", "--chain-id", String(chainId), "--website-code", "second", "--website-name", "Second Shop");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^website second \\(id \\d+, created with its store group and store view\\) now serves chain ${chainId}$`, "m"));
    const [website] = await rows(`SELECT website_id, name, default_group_id FROM \`${shopDb}\`.store_website WHERE code = 'second'`);
    expect(website).toMatchObject({ name: "Second Shop" });
    expect(await rows(`SELECT service_chain_id FROM \`${shopDb}\`.service_chain_website WHERE website_id = ?`, [website.website_id]))
      .toEqual([{ service_chain_id: chainId }]);
    const [group] = await rows(`SELECT group_id, code, default_store_id FROM \`${shopDb}\`.store_group WHERE website_id = ?`, [website.website_id]);
    expect(group).toMatchObject({ group_id: website.default_group_id, code: "second_store" });
    expect(await rows(`SELECT store_id, code, is_active FROM \`${shopDb}\`.store WHERE website_id = ?`, [website.website_id]))
      .toEqual([{ store_id: group.default_store_id, code: "second", is_active: 1 }]);

    const again = await admin("map-website", "--chain-id", String(chainId), "--website-code", "second");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already served chain ${chainId}`);
  }, 60_000);

  it("map-website refuses a website serving another chain, or an unknown chain, writing nothing", async () => {
    const chainId = await ownChain("Unmapped Chain");
    const before = await rows(`SELECT * FROM \`${shopDb}\`.service_chain_website ORDER BY website_id`);
    const taken = await admin("map-website", "--chain-id", String(chainId), "--website-code", "base");
    expect(taken.code).toBe(1);
    expect(taken.stderr.trim()).toBe(`refused: website base already serves chain ${demoChainId}`);
    const unknown = await admin("map-website", "--chain-id", "99", "--website-code", "ninety_nine");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe("refused: there is no chain 99");
    expect(await rows(`SELECT * FROM \`${shopDb}\`.service_chain_website ORDER BY website_id`)).toEqual(before);
    expect(await rows(`SELECT website_id FROM \`${shopDb}\`.store_website WHERE code = 'ninety_nine'`)).toEqual([]);
  }, 60_000);

  it("set-authentication-point seals the token, makes an identity-source client whose printed token adds members as `platform`", async () => {
    const result = await admin("set-authentication-point", "--chain-id", String(demoChainId), "--base-url", "http://127.0.0.1:8081/", "--integration-token", "the-shops-integration-token");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`chain ${demoChainId}: authentication point set: webshop http://127.0.0.1:8081`);
    expect(result.stdout).toMatch(/identity-source client {2}Webshop connector \(id \d+, created\)/);
    expect(result.stdout).not.toContain("the-shops-integration-token");
    const token = /access token\s+(\S+:\S+)\s+\(generated: shown only now/.exec(result.stdout)?.[1];
    expect(token).toMatch(/^[0-9a-f-]{36}:[0-9a-f]{64}$/);

    const [point] = await rows(`SELECT base_url, integration_token_sealed AS sealed FROM \`${coreDb}\`.authentication_points WHERE chain_id = ?`, [demoChainId]);
    expect(point.base_url).toBe("http://127.0.0.1:8081");
    const box = await openSecretBox(TEST_SECRET_KEY);
    expect(await box.open(point.sealed, `chain.integration_token:${demoChainId}`)).toBe("the-shops-integration-token");
    await expect(box.open(point.sealed, `chain.integration_token:${await ownChain("Other Chain")}`)).rejects.toThrow(SecretBoxError);

    // The connector's token: add-user through the app gives the identity source's channel.
    const added = await app().request("/internal/add-user", {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${token}`, "X-Service-App-Hostname": "shop.localhost" },
      body: JSON.stringify({ username: "from-the-shop@example.com", first_name: "Shop" }),
    });
    expect(added.status).toBe(200);
    expect(((await added.json()) as any).results.user).toMatchObject({ username: "from-the-shop@example.com", signup_channel: "platform" });

    // Again: replaced, the client kept, no new token.
    const again = await admin("set-authentication-point", "--chain-id", String(demoChainId), "--base-url", "https://shop.example/connector", "--integration-token", "the-shops-new-token-0001");
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`chain ${demoChainId}: authentication point replaced: webshop https://shop.example/connector`);
    expect(again.stdout).toMatch(/\(id \d+, existing\)/);
    expect(again.stdout).not.toContain("access token");
    expect(await rows(`SELECT COUNT(*) AS n FROM \`${coreDb}\`.service_clients WHERE chain_id = ? AND is_identity_source = 1`, [demoChainId])).toEqual([{ n: 1 }]);
  }, 60_000);

  it("set-authentication-point refuses a bad URL or token, or an unknown chain, writing nothing; clear-authentication-point removes it", async () => {
    const chainId = await ownChain("Pointed Chain");
    const set = await setChainAuthenticationPoint(core.db, await openSecretBox(TEST_SECRET_KEY), { chainId, baseUrl: "http://127.0.0.1:8081", integrationToken: "the-shops-integration-token" });
    expect(set.ok).toBe(true);
    const before = await rows(`SELECT * FROM \`${coreDb}\`.authentication_points ORDER BY id`);
    const clientsBefore = await rows(`SELECT COUNT(*) AS n FROM \`${coreDb}\`.service_clients`);
    for (const [args, reason] of [
      [["--chain-id", String(chainId), "--base-url", "ftp://shop.example", "--integration-token", "the-shops-integration-token"], "the base URL must use http or https"],
      [["--chain-id", String(chainId), "--base-url", "not a url", "--integration-token", "the-shops-integration-token"], "the base URL must be an absolute http(s) URL, for example http://127.0.0.1:8081"],
      [["--chain-id", String(chainId), "--base-url", "http://shop.example", "--integration-token", "short"], "the integration token must be 16 to 512 characters without spaces"],
      [["--chain-id", "99", "--base-url", "http://shop.example", "--integration-token", "the-shops-integration-token"], "there is no chain 99"],
    ] as const) {
      const result = await admin("set-authentication-point", ...args);
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`refused: ${reason}`);
    }
    const missing = await admin("set-authentication-point", "--chain-id", String(chainId), "--base-url", "http://shop.example");
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe("--integration-token is required (see --help)");
    expect(await rows(`SELECT * FROM \`${coreDb}\`.authentication_points ORDER BY id`)).toEqual(before);
    expect(await rows(`SELECT COUNT(*) AS n FROM \`${coreDb}\`.service_clients`)).toEqual(clientsBefore);

    const cleared = await admin("clear-authentication-point", "--chain-id", String(chainId));
    expect(cleared.code).toBe(0);
    expect(cleared.stdout).toContain(`chain ${chainId}: authentication point removed`);
    expect(await rows(`SELECT * FROM \`${coreDb}\`.authentication_points WHERE chain_id = ?`, [chainId])).toEqual([]);
    const twice = await admin("clear-authentication-point", "--chain-id", String(chainId));
    expect(twice.code).toBe(1);
    expect(twice.stderr.trim()).toBe(`refused: chain ${chainId} has no authentication point`);
  }, 60_000);

  it("link-platform stores the chain's core API, its sealed token and the webshop app; again replaces them", async () => {
    const chainId = await ownChain("Linked Chain");
    const shop = openConnectorDatabase(TEST_DATABASE_URL, shopDb);
    expect((await mapWebsiteToChain(shop.db, { chainId, websiteCode: "linked" })).ok).toBe(true);
    const token = `${crypto.randomUUID()}:${"t".repeat(64)}`;
    const withKey = { ...env, SERVICE_SECRET_KEY: TEST_SECRET_KEY };
    const result = await runAdminInProcess(["link-platform", "--chain-id", String(chainId), "--core-api-url", "http://core.second.example:8080/",
      "--access-token", token, "--app-hostname", "Shop.Second.example"], withKey);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`chain ${chainId} linked: core API http://core.second.example:8080, app shop.second.example (token stored encrypted)`);
    expect(result.stdout).not.toContain(token.slice(37));
    try {
      const links = await readPlatformLinks(shop.db, await openSecretBox(TEST_SECRET_KEY));
      expect(links).toEqual([expect.objectContaining({ chainId, coreApiUrl: "http://core.second.example:8080", accessToken: token, appHostname: "shop.second.example" })]);
    } finally {
      await shop.close();
    }
    const again = await runAdminInProcess(["link-platform", "--chain-id", String(chainId), "--core-api-url", "https://core2.example",
      "--access-token", token, "--app-hostname", "shop.second.example"], withKey);
    expect(again.stdout).toContain(`chain ${chainId} linked again: core API https://core2.example`);
    expect(await rows(`SELECT core_api_url FROM \`${shopDb}\`.service_platform_link`)).toEqual([{ core_api_url: "https://core2.example" }]);
  }, 60_000);

  it("link-platform refuses a chain no website serves, a malformed token, or a bad SERVICE_SECRET_KEY, writing nothing", async () => {
    const before = await rows(`SELECT * FROM \`${shopDb}\`.service_platform_link`);
    const token = `${crypto.randomUUID()}:${"t".repeat(64)}`;
    const args = (chain: string, accessToken: string) => ["link-platform", "--chain-id", chain, "--core-api-url", "http://core.example", "--access-token", accessToken, "--app-hostname", "s.example"];
    const withKey = { ...env, SERVICE_SECRET_KEY: TEST_SECRET_KEY };
    const unserved = await runAdminInProcess(args("77", token), withKey);
    expect(unserved.code).toBe(1);
    expect(unserved.stderr.trim()).toBe("refused: no website of this shop serves chain 77 (map one first: npm run admin -- map-website)");
    const malformed = await runAdminInProcess(args(String(demoChainId), "my-secret-token"), withKey);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr.trim()).toBe("refused: accessToken must be a privileged token <access token id>:<secret>");
    expect(malformed.stderr).not.toContain("my-secret-token");
    // Unset, the key npm start keeps in .secret-key is used (as set-authentication-point does); a bad one is refused.
    const badKey = await runAdminInProcess(args(String(demoChainId), token), { ...env, SERVICE_SECRET_KEY: "too-short" });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain("SERVICE_SECRET_KEY");
    const noHostname = await runAdminInProcess(args(String(demoChainId), token).slice(0, -2), withKey);
    expect(noHostname.code).toBe(2);
    expect(await rows(`SELECT * FROM \`${shopDb}\`.service_platform_link`)).toEqual(before);
  }, 60_000);

  it("prints the usage for --help (status 0) and refuses an unknown option in one line (status 2)", async () => {
    const help = await admin("create-chain", "--help");
    expect([help.code, help.stderr]).toEqual([0, ""]);
    expect(help.stdout).toMatch(/^Usage: npm run admin -- <command> \[options\]\n/);
    const unknown = await admin("create-chain", "--bogus", "x");
    expect([unknown.code, unknown.stdout]).toEqual([2, ""]);
    expect(unknown.stderr.trim()).toMatch(/^Unknown option '--bogus'.* \(see --help\)$/);
  });

  it("says what is missing in one line with status 2", async () => {
    const result = await adminScript("create-chain", "--name", "No Admin");
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe("--admin-username is required (see --help)");
    const none = await adminScript();
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe("give a command: create-chain, add-admin, set-password, map-website, set-authentication-point, clear-authentication-point, link-platform, chain-setting");
  }, 60_000);

  it("reports a database it cannot reach in one line, without a stack, with status 1", async () => {
    const port = await closedPort();
    const result = await runScript("scripts/admin.ts", ["create-chain", "--name", "Unreachable", "--admin-username", "boss@unreachable.example"], {
      ...env, DATABASE_URL: `mysql://root:pw@127.0.0.1:${port}`, DATABASE_WAIT_SECONDS: "0",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^cannot reach the database at mysql://root:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)`));
  }, 60_000);
});

describe("npm run admin -- chain-setting", () => {
  const settingsOf = async (chainId: number) => (await rows(
    `SELECT restrict_campaign_enable, phone_verification_sends_per_user, phone_verification_limit_window_seconds, last_modified_date FROM \`${coreDb}\`.chains WHERE id = ?`, [chainId],
  ))[0];

  it("sets a phone limit and restrict_campaign_enable, printing the change; core-api reads the limit; the chain id alone lists them", async () => {
    const chainId = await ownChain("Settings Chain");
    const set = await admin("chain-setting", String(chainId), "phone_verification_sends_per_user", "3");
    expect([set.code, set.stderr, set.stdout.trim()]).toEqual([0, "", `chain ${chainId}: phone_verification_sends_per_user 5 -> 3`]);
    const flag = await admin("chain-setting", String(chainId), "restrict_campaign_enable", "true");
    expect([flag.code, flag.stdout.trim()]).toEqual([0, `chain ${chainId}: restrict_campaign_enable false -> true`]);
    expect(await settingsOf(chainId)).toMatchObject({ restrict_campaign_enable: 1, phone_verification_sends_per_user: 3, phone_verification_limit_window_seconds: 3600 });
    expect(await core.db.transaction((tx) => readPhoneLimits(tx, chainId))).toMatchObject({ sendsPerUser: 3, windowSeconds: 3600, sendIntervalSeconds: 60 });
    const again = await admin("chain-setting", String(chainId), "restrict_campaign_enable", "true");
    expect(again.stdout.trim()).toBe(`chain ${chainId}: restrict_campaign_enable is true already`);
    const list = await admin("chain-setting", String(chainId));
    expect(list.code).toBe(0);
    expect(list.stdout.trim().split("\n")).toEqual(Object.keys(OPERATOR_CHAIN_SETTINGS).map((name) =>
      `${name} ${{ restrict_campaign_enable: "true", phone_verification_sends_per_user: "3" }[name as string] ?? readDefault(name)}`));
  }, 60_000);

  it("restrict_campaign_enable as chain-setting sets it decides delete-campaign of an active campaign", async () => {
    const chainId = await ownChain("Campaign Chain");
    const added = await admin("add-admin", "--chain-id", String(chainId), "--username", "campaigns@example.com", "--password", "campaigns-password", "--access", "write,campaign");
    expect(added.code).toBe(0);
    const session = await login("campaigns@example.com", "campaigns-password");
    const seed = (isActive: boolean) => createCampaign(core.db, { chainId, title: "Spring", isActive, activeDateFrom: null, activeDateUntil: null }, { adminId: null, endpoint: "internal/add-campaign" }, new Date());
    const del = async (campaignId: number) => {
      const res = await app().request("/internal/delete-campaign", {
        method: "DELETE", headers: { ...session.headers, "content-type": "application/json" }, body: JSON.stringify({ campaign_id: campaignId }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    expect((await admin("chain-setting", String(chainId), "restrict_campaign_enable", "true")).code).toBe(0);
    const active = await seed(true);
    const refused = await del(active.id);
    expect([refused.status, refused.body.error?.code]).toEqual([403, 68]);
    expect(refused.body.error.description).toContain("campaign_enable");
    expect((await del((await seed(false)).id)).status).toBe(200);
    expect((await admin("chain-setting", String(chainId), "restrict_campaign_enable", "false")).stdout.trim()).toBe(`chain ${chainId}: restrict_campaign_enable true -> false`);
    expect((await del(active.id)).status).toBe(200);
    expect((await admin("chain-setting", String(chainId), "restrict_campaign_enable", "true")).code).toBe(0);
  }, 60_000);

  it("refuses an unknown setting or a bad value (status 2) and an unknown chain (status 1), writing nothing", async () => {
    const before = await settingsOf(demoChainId);
    const cases: Array<[string[], number, RegExp]> = [
      [[String(demoChainId), "verify_phone_numbers", "true"], 2, /^unknown setting verify_phone_numbers \(settings: restrict_campaign_enable, phone_verification_/],
      [[String(demoChainId), "phone_verification_sends_per_user", "0"], 2, /^phone_verification_sends_per_user: must be at least 1 \(got "0"\): codes sent to one user per window/],
      [[String(demoChainId), "phone_verification_limit_window_seconds", "hour"], 2, /^phone_verification_limit_window_seconds: must be a whole number \(got "hour"\)/],
      [[String(demoChainId), "restrict_campaign_enable", "maybe"], 2, /^restrict_campaign_enable: must be true or false/],
      [[String(demoChainId), "restrict_campaign_enable"], 2, /^chain-setting takes <chain id> \[<name> <value>\] \(see --help\)$/],
      [["one", "restrict_campaign_enable", "false"], 2, /^the chain id must be a positive integer \(got one\)$/],
      [["999999", "restrict_campaign_enable", "false"], 1, /^refused: there is no chain 999999$/],
    ];
    for (const [args, code, message] of cases) {
      const result = await admin("chain-setting", ...args);
      expect([result.code, result.stdout], args.join(" ")).toEqual([code, ""]);
      expect(result.stderr.trim(), args.join(" ")).toMatch(message);
    }
    expect(await settingsOf(demoChainId)).toEqual(before);
  }, 120_000);
});

/** A setting's declared default, as the list prints it. */
function readDefault(name: string): string {
  // The flags (restrict_campaign_enable, the basket pricing and return settings) default to false.
  return OPERATOR_CHAIN_SETTINGS[name as keyof typeof OPERATOR_CHAIN_SETTINGS].schema.safeParse("true").success ? "false" : String({
    phone_verification_send_interval_seconds: 60, phone_verification_sends_per_user: 5, phone_verification_sends_per_number: 5,
    phone_verification_sends_per_chain: 1000, phone_verification_attempts_per_user: 10, phone_verification_attempts_per_number: 10,
    phone_verification_limit_window_seconds: 3600,
  }[name]);
}
