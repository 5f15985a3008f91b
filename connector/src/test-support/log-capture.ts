/**
 * A real pino logger with the connector's options (logger.ts: name, level, redaction) that keeps
 * its JSON lines instead of writing them, for tests that check what the connector logs (request
 * lines from pino-http, failures, warnings).
 */
import { pino, type Logger as PinoLogger } from "pino";
import { connectorLoggerOptions, type LogLevel } from "../logger.ts";

/** One line as written, split into pino's own fields and the call's. */
export interface CapturedLine {
  /** the level's name: `error`, `warn`, `info`, ... */
  level: string;
  /** the line's `msg` */
  message: string;
  /** what the call logged (bindings such as pino-http's requestId included), without pino's own fields */
  fields: Record<string, unknown>;
  /** the whole line, parsed */
  json: Record<string, unknown>;
  /** the line exactly as pino wrote it */
  text: string;
}

/** pino's own fields on every line. */
const PINO_FIELDS = new Set(["level", "time", "pid", "hostname", "name", "msg"]);

/**
 * A logger at `level` (default `info`) whose lines land in `lines`.
 * @example const log = captureLog(); createApp({ db, config, logger: log.logger }); ... log.lines
 */
export function captureLog(level: LogLevel = "info"): { logger: PinoLogger; lines: CapturedLine[]; clear(): void } {
  const lines: CapturedLine[] = [];
  const logger = pino(connectorLoggerOptions(level), {
    write(text: string) {
      const json = JSON.parse(text) as Record<string, unknown>;
      const fields = Object.fromEntries(Object.entries(json).filter(([k]) => !PINO_FIELDS.has(k)));
      lines.push({ level: pino.levels.labels[json.level as number]!, message: String(json.msg), fields, json, text });
    },
  });
  return { logger, lines, clear: () => { lines.length = 0; } };
}
