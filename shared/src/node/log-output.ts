/**
 * Where both services' JSON log lines go: the process's stdout, buffered. One write per request
 * line was a system call (and a thread-pool hand-off) per request; lines are written once
 * STDOUT_BUFFER_BYTES have gathered, and at the latest STDOUT_FLUSH_MS after a line, so a quiet
 * service still shows its lines at once. What is buffered when the process exits (process.exit, a
 * signal handler's exit, an uncaught error) is written synchronously first (pino's exit hook).
 * Every logger of a process shares the one buffer, so lines keep their order.
 */
import { pino, type DestinationStream } from "pino";

/** Buffered stdout: written once this many bytes have gathered ... */
const STDOUT_BUFFER_BYTES = 4096;
/** ... or this many milliseconds after a line, whichever comes first. */
const STDOUT_FLUSH_MS = 50;

let stdout: DestinationStream | undefined;

/** The process's buffered stdout (see the module comment), opened on first use; a pino destination. */
export function bufferedStdout(): DestinationStream {
  return (stdout ??= pino.destination({ dest: 1, sync: false, minLength: STDOUT_BUFFER_BYTES, periodicFlush: STDOUT_FLUSH_MS }));
}
