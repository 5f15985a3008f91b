/**
 * The transaction runner's marker rows on the real database (migration 0018): the look-up after a
 * COMMIT whose answer was lost waits for a COMMIT still in progress (a locking read), so it answers
 * the final outcome; the sweep deletes markers older than a day and only those.
 */
import { markerKey, markerPresent, MARKER_RETENTION_MS, sweepTransactionMarkers } from "@service/shared/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { transactionMarker } from "./schema.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

describe("markerPresent", () => {
  for (const outcome of ["COMMIT", "ROLLBACK"] as const) {
    it(`waits for the transaction that inserted the key, then answers ${outcome === "COMMIT" ? "present" : "absent"} after its ${outcome}`, async () => {
      const key = markerKey();
      const writer = await core.db.$client.getConnection();
      try {
        await writer.query("START TRANSACTION");
        await writer.query("INSERT INTO transaction_marker (id) VALUES (?)", [key]);
        let answered = false;
        const lookup = markerPresent(core.db, key).then((present) => {
          answered = true;
          return present;
        });
        await new Promise((r) => setTimeout(r, 300));
        expect(answered).toBe(false); // a plain read would have answered "absent" already
        await writer.query(outcome);
        expect(await lookup).toBe(outcome === "COMMIT");
      } finally {
        writer.release();
      }
    });
  }
});

describe("sweepTransactionMarkers", () => {
  it("deletes the markers older than a day, by their keys' time, and keeps the others", async () => {
    const now = Date.now();
    const old = [markerKey(now - MARKER_RETENTION_MS - 60_000), markerKey(now - MARKER_RETENTION_MS - 1)];
    const kept = [markerKey(now - MARKER_RETENTION_MS + 60_000), markerKey(now)];
    await core.db.insert(transactionMarker).values([...old, ...kept].map((id) => ({ id })));
    expect(await sweepTransactionMarkers(core.db, now)).toBeGreaterThanOrEqual(2);
    const left = (await core.db.select().from(transactionMarker)).map((r) => r.id);
    for (const key of old) expect(left).not.toContain(key);
    for (const key of kept) expect(left).toContain(key);
  });
});
