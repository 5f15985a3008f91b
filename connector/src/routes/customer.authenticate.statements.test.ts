/**
 * The statements one authenticate sends, counted on the wire (test/helpers/statements.ts), so a
 * change that adds a round trip to the login path fails here with the statements listed. Each is
 * one the rules need (customers/authenticate.ts): the integration token (with the chains' websites),
 * the per-address counter (counted, then read back with the customer and the shop's lockout settings),
 * the per-customer-and-address pair (counted, the verdict returned by the same statement), and
 * after the check the pair and the address settled: in one statement after a success, one each
 * after a failure (the address's failure settle reads its failures before changing them, which a
 * multi-table UPDATE, with no assignment order, cannot promise). The once-a-minute prunes are left out: the first call of the file runs them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countStatements, type StatementCounter } from "../../../test/helpers/statements.ts";
import { AUTH_MESSAGES } from "../customers/authenticate.ts";
import { startHarness, TEST_TOKEN, type Harness } from "../test-support/harness.ts";

const AUTH = "/rest/V1/service/customer/authenticate";
let h: Harness;
let counter: StatementCounter;
let seq = 0;

beforeAll(async () => {
  h = await startHarness("webshop_auth_statements", { trustedProxies: ["127.0.0.1"] });
  const res = await h.call("POST", "/rest/V1/service/customer/update", { user_info: { username: "sam@example.com", password: "Right-pass1" }, create_if_not_exists: true });
  expect(res.status).toBe(200);
  counter = countStatements(h.database.pool);
  // The prunes (at most once a minute on a database, by the fake clock that stands still here).
  expect((await authenticate("Right-pass1")).body.authenticated).toBe(true);
});
afterAll(async () => {
  await h?.close();
});

/** One authenticate from an address of its own; returns the answer and the statements it sent. */
async function authenticate(password: string, email = "sam@example.com") {
  counter.reset();
  const res = await fetch(`${h.url}${AUTH}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TEST_TOKEN}`, "x-forwarded-for": `198.51.100.${++seq}` },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: (await res.json()) as any, statements: counter.statements };
}

const listing = (statements: readonly string[]) => statements.map((s, i) => `${i + 1}. ${s}`).join("\n");

describe("authenticate's statements", () => {
  it("a success with a hash in the current format: 5 (no update of the customer; pair and address settled together)", async () => {
    const res = await authenticate("Right-pass1");
    expect(res.body).toMatchObject({ authenticated: true });
    expect(res.statements.length, listing(res.statements)).toBe(5);
    expect(res.statements.filter((s) => /service_authenticate_lockout/.test(s) && /service_authenticate_throttle/.test(s)), listing(res.statements)).toHaveLength(1);
    expect(res.statements.filter((s) => /customer_entity/.test(s) && !/^select/i.test(s)), listing(res.statements)).toEqual([]);
    // The lockout settings and the address's counter come with the customer: no read of their own.
    expect(res.statements.filter((s) => /^select [^(]* from `core_config_data`/i.test(s)), listing(res.statements)).toEqual([]);
    expect(res.statements.filter((s) => /^select/i.test(s) && /service_authenticate_throttle/.test(s) && !/customer_entity/.test(s)), listing(res.statements)).toEqual([]);
    // The chains' websites come with the token: no read of their own.
    expect(res.statements.filter((s) => /^select/i.test(s) && /service_chain_website/.test(s) && !/service_integration_token/.test(s)), listing(res.statements)).toEqual([]);
    // The pair's count tells its verdict: no read of the pair of its own.
    expect(res.statements.filter((s) => /^select/i.test(s) && /service_authenticate_lockout/.test(s)), listing(res.statements)).toEqual([]);
  });

  it("a wrong password: 6 (the pair and the address settled one by one)", async () => {
    const res = await authenticate("wrong-pass");
    expect(res.body).toMatchObject({ authenticated: false, message: AUTH_MESSAGES.invalid });
    expect(res.statements.length, listing(res.statements)).toBe(6);
  });

  it("an unknown email: 4 (no pair to count)", async () => {
    const res = await authenticate("Right-pass1", "nobody@example.com");
    expect(res.body).toMatchObject({ authenticated: false, message: AUTH_MESSAGES.invalid });
    expect(res.statements.length, listing(res.statements)).toBe(4);
  });
});
