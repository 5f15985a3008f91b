/**
 * The buffered log output (log-output.ts): a line is flushed at the latest the delay after it,
 * lines logged together are flushed together, and nothing is flushed while nothing is logged.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FlushAfterLine, type BufferedStream } from "./log-output.ts";

/** A buffered stream that records what it was asked to do. */
function recordingStream() {
  const events: string[] = [];
  const stream: BufferedStream = {
    write: (chunk) => events.push(`write ${chunk}`),
    flush: () => events.push("flush"),
    flushSync: () => events.push("flushSync"),
  };
  return { events, stream };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("FlushAfterLine", () => {
  it("flushes nothing while nothing is logged", () => {
    vi.useFakeTimers();
    const { events, stream } = recordingStream();
    new FlushAfterLine(stream, 50);
    vi.advanceTimersByTime(10_000);
    expect(events).toEqual([]);
  });

  it("flushes a line the delay after it, once, and lines logged meanwhile with it", () => {
    vi.useFakeTimers();
    const { events, stream } = recordingStream();
    const out = new FlushAfterLine(stream, 50);
    out.write("a\n");
    vi.advanceTimersByTime(30);
    out.write("b\n");
    expect(events).toEqual(["write a\n", "write b\n"]);
    vi.advanceTimersByTime(20);
    expect(events).toEqual(["write a\n", "write b\n", "flush"]);
    vi.advanceTimersByTime(1_000);
    expect(events).toHaveLength(3);
    out.write("c\n");
    vi.advanceTimersByTime(50);
    expect(events.slice(3)).toEqual(["write c\n", "flush"]);
  });

  it("passes pino's logger.flush on to the stream, with its callback", () => {
    const { events, stream } = recordingStream();
    const log = pino({ base: null }, new FlushAfterLine(stream, 50));
    let done = false;
    log.flush(() => (done = true));
    expect(events).toEqual(["flush"]);
    expect(done).toBe(false); // the stream calls it once written
  });

  it("writes what is buffered at once on flushSync", () => {
    const { events, stream } = recordingStream();
    const out = new FlushAfterLine(stream, 50);
    out.write("a\n");
    out.flushSync();
    expect(events).toEqual(["write a\n", "flushSync"]);
  });

  it("carries a pino logger's lines to a buffered file, there within the delay", async () => {
    const dir = mkdtempSync(join(tmpdir(), "log-output-"));
    try {
      const file = join(dir, "out.log");
      const destination = pino.destination({ dest: file, sync: false, minLength: 4096 });
      await new Promise((resolve) => destination.once("ready", resolve));
      const log = pino({ base: null }, new FlushAfterLine(destination, 20));
      log.info({ n: 1 }, "first");
      log.info({ n: 2 }, "second");
      expect(readFileSync(file, "utf8")).toBe(""); // still buffered
      await vi.waitFor(() => expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(2), { timeout: 2_000 });
      const lines = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.map((l) => [l.n, l.msg])).toEqual([[1, "first"], [2, "second"]]);
      destination.flushSync();
      destination.end();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
