/** The connector's link to the platform per chain (platform-link.ts): checked input, sealed token, one row per chain. */
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../test/helpers/database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../../../test/helpers/databases.ts";
import { openConnectorDatabase, type ConnectorDatabase } from "../db/client.ts";
import { seedConnector } from "../db/seed.ts";
import { linkPlatform, linkPlatformIfUnlinked, PlatformLinkError, readPlatformLinks } from "./platform-link.ts";

const KEY = "platform-link-test-key-0123456789abcdef";
const TOKEN = "0b7c2a0e-4f4b-4a7e-9a51-3c2f1d9e8b70:" + "a".repeat(64);
const T0 = new Date("2026-05-01T10:00:00.000Z");
const T1 = new Date("2026-05-02T10:00:00.000Z");

let dbName = "";
let database: ConnectorDatabase;
let box: SecretBox;
/** the website the seed mapped chain 3 to (the id the database handed out) */
let websiteId: number;

beforeAll(async () => {
  dbName = throwawayDatabaseName("link");
  await createMigratedDatabase("connector", dbName);
  database = openConnectorDatabase(TEST_DATABASE_URL, dbName);
  websiteId = (await seedConnector(database.db, { chainId: 3 }))!.websiteId!;
  box = await openSecretBox(KEY);
});

afterAll(async () => {
  await database?.close();
  await dropDatabase(dbName);
});

// Every test starts with no chain linked; a test that needs a link makes it.
beforeEach(async () => {
  await database.pool.query("DELETE FROM service_platform_link");
});

const rows = async () => (await database.pool.query("SELECT * FROM service_platform_link"))[0] as any[];
/** chain 3's first link, as the first test makes it (at T0) */
const FIRST_LINK = { chainId: 3, coreApiUrl: "http://127.0.0.1:8080/", accessToken: TOKEN, appHostname: "Shop.Example.COM" };

describe("linkPlatform", () => {
  it("stores the URL, the hostname and the token sealed; readPlatformLinks opens it", async () => {
    expect(await linkPlatform(database.db, box, FIRST_LINK, T0)).toEqual({ created: true });
    const [row] = await rows();
    expect(row).toMatchObject({ service_chain_id: 3, core_api_url: "http://127.0.0.1:8080", app_hostname: "shop.example.com", linked_at: T0 });
    expect(row.access_token_sealed).not.toContain(TOKEN.slice(37));
    expect(row.access_token_sealed).toMatch(/^v1\./);
    expect(await readPlatformLinks(database.db, box)).toEqual([{
      chainId: 3, coreApiUrl: "http://127.0.0.1:8080", accessToken: TOKEN, appHostname: "shop.example.com", linkedAt: T0, websiteIds: [websiteId],
    }]);
  });

  it("linking again replaces URL, token and hostname but keeps when the chain was first linked", async () => {
    await linkPlatform(database.db, box, FIRST_LINK, T0);
    const token2 = TOKEN.replace(/a+$/, "b".repeat(64));
    expect(await linkPlatform(database.db, box, { chainId: 3, coreApiUrl: "https://api.example.com", accessToken: token2, appHostname: "shop2.example.com" }, T1))
      .toEqual({ created: false });
    expect(await rows()).toHaveLength(1);
    expect(await readPlatformLinks(database.db, box)).toMatchObject([{ coreApiUrl: "https://api.example.com", accessToken: token2, appHostname: "shop2.example.com", linkedAt: T0 }]);
  });

  it("refuses bad input with one line naming it (never the token), and writes nothing", async () => {
    await linkPlatform(database.db, box, FIRST_LINK, T0); // a link the refused attempts must leave as it is
    const before = await rows();
    const cases: Array<[object, RegExp]> = [
      [{ coreApiUrl: "ftp://x" }, /coreApiUrl must be an http\(s\) URL/],
      [{ coreApiUrl: "http://u:p@x" }, /coreApiUrl/],
      [{ coreApiUrl: "http://x/?a=1" }, /coreApiUrl/],
      [{ accessToken: "not-a-token" }, /accessToken must be a privileged token/],
      [{ appHostname: "shop example" }, /appHostname must be a hostname/],
      [{ chainId: 0 }, /chainId must be a positive integer/],
      [{ chainId: 99 }, /no website of this shop serves chain 99/],
    ];
    for (const [change, message] of cases) {
      const attempt = linkPlatform(database.db, box, { chainId: 3, coreApiUrl: "http://x", accessToken: TOKEN, appHostname: "s.example", ...change });
      await expect(attempt).rejects.toThrow(PlatformLinkError);
      await expect(attempt).rejects.toThrow(message);
      await attempt.catch((err: Error) => expect(err.message).not.toContain("not-a-token"));
    }
    expect(await rows()).toEqual(before);
  });

  it("a token sealed under another SERVICE_SECRET_KEY, or copied to another chain's row, does not open", async () => {
    await linkPlatform(database.db, box, FIRST_LINK, T0);
    const otherBox = await openSecretBox("another-key-of-at-least-32-characters!!");
    await expect(readPlatformLinks(database.db, otherBox)).rejects.toThrow(/does not open under this SERVICE_SECRET_KEY: link the chain again/);
    const [other] = (await database.pool.query("INSERT INTO store_website (code, name) VALUES ('other', 'Other website')")) as any[];
    await database.pool.query("INSERT INTO service_chain_website (service_chain_id, website_id) VALUES (4, ?)", [other.insertId]);
    await database.pool.query("INSERT INTO service_platform_link SELECT 4, core_api_url, access_token_sealed, app_hostname, linked_at, updated_at FROM service_platform_link WHERE service_chain_id = 3");
    await expect(readPlatformLinks(database.db, box, [4])).rejects.toThrow(/chain 4 does not open/);
    expect(await readPlatformLinks(database.db, box, [3])).toHaveLength(1);
  });
});

describe("linkPlatformIfUnlinked (what a start's seeding uses)", () => {
  it("links a chain without a link; of concurrent seeders exactly one writes; a link is never changed afterwards", async () => {
    await database.pool.query("INSERT INTO service_chain_website (service_chain_id, website_id) VALUES (7, 7)");
    const link = (n: number) => ({ chainId: 7, coreApiUrl: `http://127.0.0.1:${8080 + n}`, accessToken: TOKEN, appHostname: "seven.example.com" });
    const results = await Promise.all([0, 1, 2, 3, 4].map((n) => linkPlatformIfUnlinked(database.db, box, link(n), T0)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    const [stored] = (await rows()).filter((r) => r.service_chain_id === 7);
    expect(stored).toMatchObject({ core_api_url: `http://127.0.0.1:${8080 + winner}`, linked_at: T0 });

    expect(await linkPlatformIfUnlinked(database.db, box, { ...link(9), appHostname: "other.example.com" }, T1)).toBe(false);
    const otherKey = await openSecretBox("another-key-of-at-least-32-characters!!");
    expect(await linkPlatformIfUnlinked(database.db, otherKey, link(10), T1)).toBe(false);
    expect((await rows()).filter((r) => r.service_chain_id === 7)).toEqual([stored]);
  });

  it("refuses what linkPlatform refuses, and writes nothing", async () => {
    const before = await rows();
    await expect(linkPlatformIfUnlinked(database.db, box, { chainId: 98, coreApiUrl: "http://x", accessToken: TOKEN, appHostname: "s.example" })).rejects.toThrow(/no website of this shop serves chain 98/);
    await expect(linkPlatformIfUnlinked(database.db, box, { chainId: 98, coreApiUrl: "ftp://x", accessToken: TOKEN, appHostname: "s.example" })).rejects.toThrow(PlatformLinkError);
    expect(await rows()).toEqual(before);
  });
});
