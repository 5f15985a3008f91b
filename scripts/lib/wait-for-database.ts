/**
 * Start-up wait for the database server: under compose (or after a reboot) the services may come
 * up before MySQL accepts connections, so an unreachable server is retried with exponential
 * back-off up to a limit (DATABASE_WAIT_SECONDS, default 60 s) instead of failing at once. A
 * refusal that waiting cannot cure (access denied) fails at once; an unknown host name is
 * retried, as compose's DNS may know the database container only once it runs.
 */
import { databaseSession } from "@service/shared/node";
import mysql from "mysql2/promise";

/** First pause between attempts; it doubles up to MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 5_000;
/** Longest single connection attempt (a frozen server would otherwise hold it for mysql2's 10 s). */
const ATTEMPT_TIMEOUT_MS = 5_000;

/** Errors that waiting may cure: the server is not (yet) listening or reachable. */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN",
  "PROTOCOL_CONNECTION_LOST", "ER_CON_COUNT_ERROR", "ER_SERVER_SHUTDOWN",
]);

export interface WaitForDatabaseOptions {
  /** give up after this many milliseconds (0: one attempt) */
  limitMs: number;
  /** told once, on the first failed attempt, that start-up is waiting */
  onWait?: (reason: string) => void;
  /** pauses between attempts (tests pass a fake) */
  sleep?: (ms: number) => Promise<void>;
}

/** The database server stayed unreachable (or refused us) — `message` is the one line to print. */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
}

/**
 * Resolves once the server at `databaseUrl` accepts a connection.
 * @param databaseUrl `mysql://user:pass@host:port` (the password never appears in messages)
 * @throws DatabaseUnavailableError with a one-line message when the limit passes, or at once
 *   when the server refuses for a reason waiting cannot cure (for example access denied)
 */
export async function waitForDatabase(databaseUrl: string, options: WaitForDatabaseOptions): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  for (let attempt = 1; ; attempt++) {
    const left = options.limitMs - (Date.now() - started);
    try {
      const conn = await mysql.createConnection({ uri: databaseSession(databaseUrl).uri, connectTimeout: Math.max(1_000, Math.min(ATTEMPT_TIMEOUT_MS, left)) });
      await conn.end();
      return;
    } catch (err) {
      const code = (err as { code?: string }).code ?? "";
      const reason = code || (err as Error).message;
      if (!TRANSIENT_CODES.has(code)) {
        throw new DatabaseUnavailableError(`cannot use the database at ${safeUrl(databaseUrl)}: ${(err as Error).message}`);
      }
      const elapsed = Date.now() - started;
      if (elapsed + pause > options.limitMs) {
        throw new DatabaseUnavailableError(
          `cannot reach the database at ${safeUrl(databaseUrl)} (${reason}) after ${Math.round(elapsed / 1000)} s, ` +
            `${attempt} ${attempt === 1 ? "attempt" : "attempts"} (DATABASE_WAIT_SECONDS sets how long start-up waits)`,
        );
      }
      if (attempt === 1) options.onWait?.(`waiting for the database at ${safeUrl(databaseUrl)} (${reason}), up to ${Math.round(options.limitMs / 1000)} s`);
      await sleep(pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
}

/** The URL without its password, for messages. */
export function safeUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (url.password) url.password = "***";
  return url.toString().replace(/\/$/, "");
}
