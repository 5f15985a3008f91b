/**
 * Where both services' JSON log lines go: the process's stdout, buffered. One write per request
 * line was a system call (and a thread-pool hand-off) per request; lines are written once
 * STDOUT_BUFFER_BYTES have gathered, and at the latest STDOUT_FLUSH_MS after a line, so a quiet
 * service still shows its lines at once. What is buffered when the process exits (process.exit, a
 * signal handler's exit, an uncaught error) is written synchronously first (pino's exit hook).
 * Every logger of a process shares the one buffer, so lines keep their order.
 *
 * The flush after a line is a timer started by the line, not pino's `periodicFlush`: that one
 * flushes every STDOUT_FLUSH_MS whether or not anything was logged, and an empty flush is still
 * a write (of nothing) through the thread pool, so an idle service woke 20 times a second.
 */
import { pino, type DestinationStream } from "pino";

/** Buffered stdout: written once this many bytes have gathered ... */
const STDOUT_BUFFER_BYTES = 4096;
/** ... or this many milliseconds after a line, whichever comes first. */
const STDOUT_FLUSH_MS = 50;

/** What FlushAfterLine needs of its buffered stream (pino.destination's SonicBoom has it). */
export interface BufferedStream {
  write(chunk: string): unknown;
  /** writes what is buffered (asynchronously); `done` is called once it is written */
  flush(done?: (err?: Error) => void): void;
  /** writes what is buffered before returning */
  flushSync(): void;
}

/**
 * A pino destination over a buffered stream: a line starts a timer (unless one is running) that
 * flushes the buffer `delayMs` later, so no line waits longer than that and nothing is flushed
 * while nothing is logged. The timer never keeps the process alive.
 */
export class FlushAfterLine implements DestinationStream {
  readonly #stream: BufferedStream;
  readonly #delayMs: number;
  #timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * @param stream the buffered stream the lines go to
   * @param delayMs the longest a line stays buffered, in milliseconds
   */
  constructor(stream: BufferedStream, delayMs: number) {
    this.#stream = stream;
    this.#delayMs = delayMs;
  }

  /** Buffers one line (pino calls it with the serialized line). */
  write(line: string): void {
    this.#stream.write(line);
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#stream.flush();
    }, this.#delayMs);
    this.#timer.unref?.();
  }

  /**
   * Writes what is buffered now (pino's `logger.flush`), calling `done` once it is written.
   * @param done called with an error when the write failed
   */
  flush(done?: (err?: Error) => void): void {
    this.#stream.flush(done);
  }

  /** Writes what is buffered now, before returning. */
  flushSync(): void {
    this.#stream.flushSync();
  }
}

let stdout: DestinationStream | undefined;

/** The process's buffered stdout (see the module comment), opened on first use; a pino destination. */
export function bufferedStdout(): DestinationStream {
  return (stdout ??= new FlushAfterLine(pino.destination({ dest: 1, sync: false, minLength: STDOUT_BUFFER_BYTES }), STDOUT_FLUSH_MS));
}
