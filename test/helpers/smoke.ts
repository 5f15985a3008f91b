/**
 * The smoke requests a core API must pass on every runtime (Node and Deno): health, readiness and
 * the root document, admin login, add-business, get-businesses and a Resources list, the /docs
 * page with its own copy of Scalar (no outside host), a body over 1 MiB that does not break the
 * client's next request, and /metrics, over real HTTP against `baseUrl`.
 */
import http from "node:http";
import { expect } from "vitest";

/**
 * Runs the smoke requests; asserts every step.
 * @param baseUrl for example http://127.0.0.1:41234
 * @param admin credentials of an admin with write access on `chainId`
 */
export async function runCoreSmoke(baseUrl: string, admin: { username: string; password: string }, chainId: number): Promise<void> {
  const health = await fetch(`${baseUrl}/health`);
  expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
  expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  const ready = await fetch(`${baseUrl}/ready`);
  expect([ready.status, await ready.json()]).toEqual([200, { status: "ready", database: "ok", migrations: "current", pending: [] }]);
  const root = await fetch(`${baseUrl}/`);
  expect(root.status).toBe(200);
  expect(await root.json()).toMatchObject({ name: "@service/core-api", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });

  const login = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(admin),
  });
  expect(login.status).toBe(200);
  const session = ((await login.json()) as any).results.session_info;
  const headers = {
    "X-Service-Session-User-ID": String(session.session_user_id),
    "X-Service-Session-Key": session.session_key,
    "X-Service-Chain-ID": String(chainId),
  };

  const form = new FormData();
  form.set("chain_id", String(chainId));
  form.set("name", "Smoke Test Bakery");
  form.set("owner_code", "SMOKE-1");
  form.set("latitude", "52.3791");
  form.set("longitude", "4.9003");
  form.set("countrycode", "NL");
  form.set("postalcode", "1012 AB");
  const added = await fetch(`${baseUrl}/internal/add-business`, { method: "POST", headers, body: form });
  const addedBody = (await added.json()) as any;
  expect(added.status, JSON.stringify(addedBody)).toBe(200);
  expect(addedBody.results.result_type).toBe("add-business");
  const id = addedBody.results.business.id;

  const listed = await fetch(
    `${baseUrl}/internal/get-businesses?chain_id=${chainId}&name=smoke&search_lat=52.38&search_long=4.90`,
    { headers },
  );
  const listedBody = (await listed.json()) as any;
  expect(listed.status, JSON.stringify(listedBody)).toBe(200);
  expect(listedBody.results.businesses.map((b: any) => b.id)).toEqual([id]);
  expect(listedBody.results.businesses[0].business_distance_km).toBeLessThan(1);

  const resources = await fetch(`${baseUrl}/resources/businesses?search[name]=bak&limit=10`, { headers });
  const resourcesBody = (await resources.json()) as any;
  expect(resources.status, JSON.stringify(resourcesBody)).toBe(200);
  expect(resourcesBody.results.result_type).toBe("businesses");
  expect(resourcesBody.results.total_count).toBe(1);
  expect(resourcesBody.results.resources[0]).toMatchObject({ id, name: "Smoke Test Bakery", owner_code: "SMOKE-1" });

  // /docs works offline: the page names no outside host and its script is served here.
  const docs = await fetch(`${baseUrl}/docs`);
  expect(docs.status).toBe(200);
  expect((await docs.text()).match(/https?:\/\/[^\s"'<>]+/g)).toBeNull();
  const script = await fetch(`${baseUrl}/docs/scalar.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get("content-type")).toContain("javascript");
  expect(await script.text()).toContain("createApiReference");

  await expectRefusedBodyHarmless(baseUrl);

  const metrics = await fetch(`${baseUrl}/metrics`);
  expect(metrics.status).toBe(200);
  expect(await metrics.text()).toMatch(/^http_requests_total\{method="POST",route="\/auth\/login",status="200"\} 1$/m);
}

/**
 * A body over 1 MiB is 413 with `Connection: close` (RFC 9112 9.6, core-api/src/http/unread-body.ts)
 * and the next request of a client that keeps its connection open succeeds, three times.
 */
async function expectRefusedBodyHarmless(baseUrl: string): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, body?: Buffer) =>
    new Promise<string>((resolve) => {
      const req = http.request(new URL(path, baseUrl), { method, agent, headers: body ? { "content-type": "application/json", "content-length": String(body.length) } : {} }, (res) => {
        res.resume();
        res.on("end", () => resolve(`${res.statusCode} ${res.headers.connection ?? "-"}`));
      });
      req.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      req.end(body);
    });
  const rounds: string[] = [];
  for (let i = 0; i < 3; i++) rounds.push(`${await send("POST", "/internal/add-business", Buffer.alloc(2 * 1024 * 1024, 0x20))} / ${(await send("GET", "/health")).split(" ")[0]}`);
  agent.destroy();
  expect(rounds).toEqual(["413 close / 200", "413 close / 200", "413 close / 200"]);
}
