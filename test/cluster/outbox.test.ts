/**
 * The outbox on the Galera cluster: two workers, one on node 1 and one on node 2, drain one outbox
 * to a real HTTP receiver. Every delivery reaches it exactly once (the claim of a row is one
 * write that only one node's transaction can commit) and every row is removed as delivered.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { openSecretBox, type SecretBox } from "@service/shared/secret-box";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCoreDatabase, type CoreDatabase } from "../../core-api/src/db/client.ts";
import type { DestinationKinds } from "../../core-api/src/outbox/destination.ts";
import { enqueue } from "../../core-api/src/outbox/enqueue.ts";
import { OutboxWorker } from "../../core-api/src/outbox/outbox-worker.ts";
import { startCore, TEST_SECRET_KEY, type TestCore } from "../helpers/core.ts";
import { NODE_URLS, queryNode, sleep } from "./cluster-helpers.ts";

const DELIVERIES = 120;

let core: TestCore;
let box: SecretBox;
let receiver: Server;
let receiverUrl: string;
/** how often each Idempotency-Key was received */
const received = new Map<string, number>();
const databases: CoreDatabase[] = [];

beforeAll(async () => {
  core = await startCore();
  box = await openSecretBox(TEST_SECRET_KEY);
  receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"]);
      received.set(key, (received.get(key) ?? 0) + 1);
      // a little work per delivery, so both workers are busy at the same time
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), 5);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.close()));
  receiver?.closeAllConnections();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  await core?.close();
});

/** A destination kind of this test: every delivery is a POST of its payload to the receiver. */
const KINDS: DestinationKinds = {
  probe: { prepare: async ({ payload }) => ({ request: { url: receiverUrl, body: JSON.stringify(payload), signingSecret: null } }) },
};

describe("outbox workers on two nodes", () => {
  it(`deliver each of ${DELIVERIES} deliveries exactly once`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < DELIVERIES; i++) {
      const { deliveryId } = await enqueue(core.db, { chainId: core.chainId, kind: "probe", eventType: "probe", payload: { i } }, { secretBox: box, now: new Date() });
      ids.push(deliveryId);
    }
    const sent = [0, 0];
    const workers = NODE_URLS.slice(0, 2).map((url, i) => {
      const database = openCoreDatabase(url, core.dbName);
      databases.push(database);
      const counting: typeof fetch = (input, init) => {
        sent[i]!++;
        return fetch(input, init);
      };
      return new OutboxWorker({ db: database.db, secretBox: box, kinds: KINDS, fetch: counting, pollMs: 20, timeoutMs: 5_000, concurrency: 8 });
    });
    for (const w of workers) w.start();
    try {
      // Bounded: 60 s at most.
      for (const until = Date.now() + 60_000; Date.now() < until && received.size < DELIVERIES;) await sleep(100);
      await sleep(1_000); // a second delivery of some row would arrive by now
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(sent.every((n) => n > 0), `sent per node: ${sent}`).toBe(true); // both nodes' workers took part
    expect([...received.keys()].sort()).toEqual([...ids].sort());
    expect([...received.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    for (const url of NODE_URLS) {
      const rows = await queryNode<{ status: string; n: unknown }>(url, core.dbName, "SELECT status, COUNT(*) AS n FROM outbox GROUP BY status");
      expect(rows.map((r) => [r.status, Number(r.n)]), url).toEqual([]); // a delivered row is removed
    }
  });
});
