/**
 * GET /docs in a real headless browser (Debian's chromium driven by playwright-core), against
 * `npm start` on throwaway databases and a free port, as a newcomer uses it: the page loads its
 * script compressed and the schema without a validation error or any console error, "Test Request" on POST
 * /auth/login with the seeded admin's username and password opens a session (login is public:
 * no session header goes out), and "Test Request" on DELETE /auth/logout with that session ends
 * it. Every request the page makes goes to 127.0.0.1.
 *
 * Run by `npm run test:browser` (vitest.browser.config.ts), not by `npm test`; `.ci/run`
 * installs chromium when it is missing. CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page, type Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "../helpers/databases.ts";
import { scriptEnv, start, type Running } from "../helpers/processes.ts";

const ADMIN = { username: "admin@demo.example", password: "browser-test-admin-password" };
/** Launch options: a throwaway profile, and nothing of Chromium's own that calls out. */
const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

const dbNames = [throwawayDatabaseName("browser_core"), throwawayDatabaseName("browser_shop")];
let services: Running;
let core: string;
let profile: string;
let context: BrowserContext;
let page: Page;
const requests: Request[] = [];
const consoleLines: string[] = [];

beforeAll(async () => {
  services = start("npm", ["start"], scriptEnv({
    DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: dbNames[0]!, WEBSHOP_DB_NAME: dbNames[1]!,
    CORE_API_PORT: "0", CONNECTOR_PORT: "0", SERVICE_SECRET_KEY: "browser-test-secret-key-of-32-characters-or-more",
    SEED_ADMIN_PASSWORD: ADMIN.password,
  }));
  core = (await services.waitFor(/core-api\s+(http:\/\/\S+)/, 120_000))[1]!;
  await services.waitFor(/connector\s+http:\/\//);
  profile = mkdtempSync(join(tmpdir(), "docs-browser-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS,
  });
  page = context.pages()[0] ?? (await context.newPage());
  context.on("request", (r) => requests.push(r));
  page.on("console", (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  if (services) {
    services.child.kill("SIGTERM");
    await services.exited();
  }
  await Promise.all(dbNames.map(dropDatabase));
});

/** Opens the operation `summary` of tag `tag` in the sidebar and its "Test Request" client. */
async function openClient(tag: string | undefined, summary: string, method: string, path: string): Promise<void> {
  if (tag) await page.getByText(tag, { exact: true }).first().click();
  await page.getByText(summary, { exact: true }).first().click();
  await page.getByRole("button", { name: `Test Request (${method} ${path})` }).click();
}

/** Clicks the client's Send and resolves with the response to `path`. */
async function send(path: string) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === path),
    page.getByRole("button", { name: /^Send/ }).first().click(),
  ]);
  return response;
}

describe("the /docs page in a browser", () => {
  it("loads its script compressed and the schema without a validation error", async () => {
    const script = page.waitForResponse((r) => r.url().endsWith("/docs/scalar.js"));
    await page.goto(`${core}/docs`);
    expect((await script).headers()["content-encoding"]).toBe("br");
    await page.getByText("auth", { exact: true }).first().waitFor();
    // Scalar logs how long adding the document took once it has read and checked it.
    await expect.poll(() => consoleLines.some((l) => l.includes("addDocument")), { timeout: 20_000 }).toBe(true);
    expect(consoleLines.filter((l) => /validation error/i.test(l) || l.startsWith("error"))).toEqual([]); // nor a 404 (the icon)
  });

  it("logs in through Test Request with no session header, then logs out with that session", async () => {
    await openClient("auth", "Log in (open a session)", "post", "/auth/login");
    const body = page.locator('.cm-content[data-language="json"]');
    expect(JSON.parse(await body.innerText())).toEqual({ username: "", password: "" }); // the example body: nothing invented
    await body.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(JSON.stringify(ADMIN));
    await expect.poll(async () => JSON.parse(await body.innerText())).toEqual(ADMIN);
    await page.waitForTimeout(1000); // the client takes the editor's text into its request after a debounce
    const login = await send("/auth/login");
    expect(login.status(), `${login.request().postData()} -> ${await login.text()}`).toBe(200);
    expect(Object.keys(await login.request().allHeaders()).filter((h) => h.startsWith("x-service-session"))).toEqual([]);
    const session = (await login.json()).results.session_info as { session_user_id: number; session_key: string };
    expect(session.session_key).toMatch(/^[0-9a-f]{64}$/);

    await page.keyboard.press("Escape");
    await openClient(undefined, "Log out (end the session)", "delete", "/auth/logout");
    const [userId, key] = [page.locator("input.scalar-password-input").nth(0), page.locator("input.scalar-password-input").nth(1)];
    await userId.fill(String(session.session_user_id));
    await key.fill(session.session_key);
    const logout = await send("/auth/logout");
    expect(logout.status(), await logout.text()).toBe(200);
    expect(await logout.json()).toMatchObject({ results: { result_type: "logout" } });
    expect(await logout.request().allHeaders()).toMatchObject({
      "x-service-session-user-id": String(session.session_user_id), "x-service-session-key": session.session_key,
    });
  });

  it("sent every request to 127.0.0.1", () => {
    const urls = requests.map((r) => r.url());
    expect(urls).toContain(`${core}/resources/schema`);
    expect(urls.filter((u) => new URL(u).hostname !== "127.0.0.1")).toEqual([]);
  });
});
