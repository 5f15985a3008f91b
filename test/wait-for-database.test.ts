/**
 * The start-up wait for the database: an unreachable server is retried with doubling pauses up to
 * the limit, then reported in one line without the password; a refusal that waiting cannot cure is
 * reported at once.
 */
import { describe, expect, it } from "vitest";
import { safeUrl, waitForDatabase } from "../scripts/lib/wait-for-database.ts";
import { TEST_DATABASE_URL } from "./helpers/databases.ts";
import { closedPort } from "./helpers/processes.ts";

describe("waitForDatabase", () => {
  it("returns at once when the server answers", async () => {
    const pauses: number[] = [];
    await waitForDatabase(TEST_DATABASE_URL, { limitMs: 5_000, sleep: async (ms) => void pauses.push(ms) });
    expect(pauses).toEqual([]);
  });

  it("retries an unreachable server with doubling pauses, says once that it waits, then gives up in one line", async () => {
    const port = await closedPort();
    const pauses: number[] = [];
    const waits: string[] = [];
    const url = `mysql://root:hunter2@127.0.0.1:${port}`;
    const failure = await waitForDatabase(url, {
      limitMs: 20_000,
      onWait: (line) => waits.push(line),
      // no real pauses; the seventh ends the wait (the 20 s limit is never reached)
      sleep: async (ms) => {
        pauses.push(ms);
        if (pauses.length >= 7) throw Object.assign(new Error("stop"), { code: "TEST_STOP" });
      },
    }).catch((err: Error) => err);
    expect(pauses).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
    expect(waits).toEqual([`waiting for the database at mysql://root:***@127.0.0.1:${port} (ECONNREFUSED), up to 20 s`]);
    expect((failure as Error).message).toBe("stop");
  });

  it("reports the limit passing in one line naming the variable, without the password", async () => {
    const port = await closedPort();
    const err = await waitForDatabase(`mysql://root:hunter2@127.0.0.1:${port}`, { limitMs: 600, sleep: async () => {} }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe("DatabaseUnavailableError");
    expect((err as Error).message).toMatch(
      new RegExp(`^cannot reach the database at mysql://root:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\) after 0 s, \\d+ attempts \\(DATABASE_WAIT_SECONDS sets how long start-up waits\\)$`),
    );
    expect((err as Error).message).not.toContain("hunter2");
  });

  it("does not wait when the server refuses the account", async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.username = "no_such_user_u5";
    url.password = "wrong";
    const pauses: number[] = [];
    const err = await waitForDatabase(url.toString(), { limitMs: 10_000, sleep: async (ms) => void pauses.push(ms) }).catch((e: Error) => e);
    expect(pauses).toEqual([]);
    expect((err as Error).name).toBe("DatabaseUnavailableError");
    expect((err as Error).message).toMatch(/^cannot use the database at mysql:\/\/no_such_user_u5:\*\*\*@.*: Access denied/);
  });

  it("hides only the password of a URL", () => {
    expect(safeUrl("mysql://app:s3cret@db:3306/")).toBe("mysql://app:***@db:3306");
    expect(safeUrl("mysql://root@127.0.0.1:3306")).toBe("mysql://root@127.0.0.1:3306");
  });
});
