/**
 * The reconcile against a core API that answers some customers with nonsense: a body that is no
 * JSON, JSON that is not add-user's results, and a member (precondition_failed) the shop cannot
 * take. Each fails that customer only: the chain's other customers and the other chain are still
 * sent, and the bad ones are sent on a later pass once the answers are right. The core API here
 * is a small HTTP server of the test's own (real HTTP), so it can answer what a real one should not.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import type { UserInfo } from "@service/shared/user-info";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addWebsite, startHarness, type Harness } from "../test-support/harness.ts";
import { linkPlatform } from "./platform-link.ts";
import { runReconcile } from "./reconcile.ts";

const KEY = "reconcile-test-key-0123456789abcdef";
const TOKEN = `${"1".repeat(8)}-1111-1111-1111-${"1".repeat(12)}:${"s".repeat(32)}`;

/** A member as the platform returns it; username, ids and dates per answer. */
function member(id: number, username: string, lastModified: string): UserInfo {
  return {
    id, user_id: id, member_number: String(100_000 + id), username,
    address_streetname: null, address_housenumber: null, address_housenumber_extension: null, address_line_2: null, address_line_3: null,
    address_postalcode: null, address_regionstate: null, address_towncity: null, birthday: null, country_code: null,
    entity_code: { code: "1", type: "chain" }, first_name: null, last_name: null, gender: null,
    mailing_list: { mailing_list_sub_offered: false, mailing_list_subscribed: false, printed_mailing_list_subscribed: false },
    opt_in_programme: { programme_opted_in: false }, phone_number: null, signup_channel: "platform", phone_number_status: 0,
    phone_number_duplicate: false, referral_code: "ABCD1234", auxiliary_identifier: null, authentication_point_identifier: null,
    language: null, home_store_id: null, signup_store_id: null, is_employee: false, registered: true, opt_in_secondary: null,
    created_date: "2026-01-01 00:00:00", last_modified_date: lastModified,
  };
}

/** How the fake core API answers add-user for a username: right, or one kind of nonsense. */
type Answer = "ok" | "no_json" | "not_results" | "member_unusable";

let h: Harness;
let box: SecretBox;
let server: Server;
const answers = new Map<string, Answer>();
const calls: Array<{ username: string; since: string | undefined }> = [];

async function bodyOf(req: IncomingMessage): Promise<Record<string, any>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text);
}

beforeAll(async () => {
  h = await startHarness("reconcile");
  box = await openSecretBox(KEY);
  let nextId = 1;
  server = createServer(async (req, res) => {
    const params = await bodyOf(req);
    calls.push({ username: params.username, since: params.if_unmodified_since });
    const answer = answers.get(params.username) ?? "ok";
    res.writeHead(200, { "content-type": answer === "no_json" ? "text/html" : "application/json" });
    if (answer === "no_json") return res.end("<html>502 Bad Gateway</html>");
    if (answer === "not_results") return res.end(JSON.stringify({ result: { code: 1, status: "ok" }, results: { user: { id: 1 } } }));
    const conflict = answer === "member_unusable";
    // member_unusable: the member changed after the shop (newer), with a username the shop cannot take.
    const user = conflict ? member(nextId++, "not an email address", "2099-01-01 00:00:00") : member(nextId++, params.username, "2026-01-01 00:00:00");
    res.end(JSON.stringify({
      result: { code: 1, status: "ok" },
      results: {
        user, user_type: "registered", updated_existing_user: !conflict, referring_user: null, result_type: "add-user",
        ...(params.if_unmodified_since ? { precondition_failed: conflict } : {}),
      },
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const coreApiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const second = await addWebsite(h, "second", 2);
  const linkedAt = new Date(Date.now() - 60_000);
  for (const chainId of [1, 2]) await linkPlatform(h.database.db, box, { chainId, coreApiUrl, accessToken: TOKEN, appHostname: "shop.example.test" }, linkedAt);
  secondWebsite = second;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await h?.close();
});

let secondWebsite: { websiteId: number; storeId: number };

/** A registration in the shop after the link (never synced: due as `new`); returns its entity_id. */
async function register(email: string, website: { websiteId: number; storeId: number }): Promise<number> {
  const [res] = await h.database.pool.query(
    "INSERT INTO customer_entity (website_id, email, group_id, store_id, created_in, firstname, password_hash, is_active) VALUES (?, ?, 1, ?, 'Default', ?, 'x:y:2', 1)",
    [website.websiteId, email, website.storeId, email.split("@")[0]],
  );
  return (res as { insertId: number }).insertId;
}

const lastHashOf = async (id: number) => (await h.rows("service_customer_data", `customer_id = ${id}`))[0]?.last_hash ?? null;

describe("a bad answer for one customer", () => {
  it("fails that customer only: the chain's other customers and the other chain are sent", async () => {
    const ok1 = await register("ok1@example.com", h.base);
    const noJson = await register("nojson@example.com", h.base);
    const notResults = await register("notresults@example.com", h.base);
    const ok2 = await register("ok2@example.com", h.base);
    // A customer linked to a member, edited in the shop: sent conditionally, answered with a newer member the shop cannot take.
    const linked = await h.call("POST", "/rest/V1/service/customer/update", {
      create_if_not_exists: true, service_chain_id: 1, user_info: { username: "linked@example.com", first_name: "Linked", user_id: 900, member_number: "900" },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const linkedId: number = linked.body.id;
    await h.exec("UPDATE customer_entity SET firstname = 'Edited' WHERE entity_id = ?", [linkedId]);
    const other1 = await register("other1@example.com", secondWebsite);
    const otherBad = await register("otherbad@example.com", secondWebsite);
    const other2 = await register("other2@example.com", secondWebsite);
    answers.set("nojson@example.com", "no_json").set("notresults@example.com", "not_results").set("linked@example.com", "member_unusable")
      .set("otherbad@example.com", "no_json");

    const report = await runReconcile({ db: h.database.db, box }, { concurrency: 2, batchSize: 2 });
    expect(report.status).toBe("done");
    expect(report.chains).toEqual([
      { chainId: 1, scanned: 5, due: 5, sent: 2, pulled: 0, failed: 3, stopped: null },
      { chainId: 2, scanned: 3, due: 3, sent: 2, pulled: 0, failed: 1, stopped: null },
    ]);
    const failures = Object.fromEntries(report.failures.map((f) => [f.customerId, f.message]));
    expect(failures).toEqual({
      [noJson]: expect.stringContaining("HTTP 200, but the answer is no JSON"),
      [notResults]: expect.stringContaining("HTTP 200, but the answer is not add-user's results"),
      [linkedId]: expect.stringMatching(/the member the platform answered with cannot be written into the shop \(.*username/),
      [otherBad]: expect.stringContaining("no JSON"),
    });
    for (const id of [ok1, ok2, other1, other2]) expect(await lastHashOf(id)).toMatch(/^[0-9a-f]{64}$/);
    for (const id of [noJson, notResults, otherBad]) expect(await lastHashOf(id)).toBeNull();
    // The linked customer kept the shop's edit and its old last_hash: it is due again.
    expect((await h.rows("customer_entity", `entity_id = ${linkedId}`))[0].firstname).toBe("Edited");
    expect(calls.find((c) => c.username === "linked@example.com")?.since).toBeDefined();

    // Right answers now: the next pass sends exactly the ones that failed.
    answers.clear();
    calls.length = 0;
    const again = await runReconcile({ db: h.database.db, box }, {});
    expect(again.chains.map((c) => [c.chainId, c.due, c.sent, c.failed])).toEqual([[1, 3, 3, 0], [2, 1, 1, 0]]);
    expect(calls.map((c) => c.username).sort()).toEqual(["linked@example.com", "nojson@example.com", "notresults@example.com", "otherbad@example.com"]);
  });
});
