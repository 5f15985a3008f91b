/**
 * The statements core-api sends for one request, captured in this process: the core app
 * (createApp, as the Node entry builds it) on the bench database, on a pool whose wire traffic is
 * captured (sql-capture.ts), asked through `app.request` with the bench admin's session. Each
 * request is sent twice and the second one is kept, so start-up work (a first prepare, a lazily
 * filled cache) does not count.
 *
 * Also the bare mysql2 pool the floors replay statements on: mysql2's defaults (10 connections)
 * with the connection options the services use (UTC, utf8mb4, decimals as numbers).
 */
import mysql, { type Pool } from "mysql2/promise";
import { createApp } from "../core-api/src/app.ts";
import { loadCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase } from "../core-api/src/db/client.ts";
import { defaultLogger } from "../core-api/src/logger.ts";
import type { BenchSettings } from "./section.ts";
import { captureStatements, isBusinessStatement, type CapturedStatement } from "./sql-capture.ts";

/** A request to capture: what to ask and a name for the report. */
export interface CapturedRequestSpec {
  key: string;
  label: string;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  /** JSON body */
  body?: unknown;
  /** a fresh body for the second (kept) request, e.g. a new owner_code */
  secondBody?: unknown;
}

/** The statements of one request. */
export interface RequestStatements {
  key: string;
  label: string;
  /** every statement of the request, in order */
  all: CapturedStatement[];
  /** those reading or writing businesses and their indexes (the rest is authentication) */
  business: CapturedStatement[];
}

/**
 * Sends each request twice through an in-process core app and keeps the second one's statements.
 * @throws Error naming the request when an answer is not 200
 */
export async function captureRequests(settings: BenchSettings, serviceSecretKey: string, specs: CapturedRequestSpec[]): Promise<RequestStatements[]> {
  const database = openCoreDatabase(settings.databaseUrl, settings.coreDb);
  const config = loadCoreConfig({
    DATABASE_URL: settings.databaseUrl, CORE_DB_NAME: settings.coreDb, SERVICE_SECRET_KEY: serviceSecretKey, LOG_LEVEL: "silent",
  });
  const app = createApp({ db: database.db, config, logger: defaultLogger({ level: "silent" }) });
  const capture = captureStatements(database.pool);
  const out: RequestStatements[] = [];
  try {
    for (const spec of specs) {
      const send = async (body: unknown) => {
        const res = await app.request(spec.path, {
          method: spec.method,
          headers: { ...spec.headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`${spec.method} ${spec.path} answered ${res.status}: ${text.slice(0, 300)}`);
      };
      await send(spec.body);
      capture.take();
      await send(spec.secondBody ?? spec.body);
      const all = capture.take();
      out.push({ key: spec.key, label: spec.label, all, business: all.filter(isBusinessStatement) });
    }
  } finally {
    await database.close();
  }
  return out;
}

/** A bare mysql2 pool on the bench core database (see the module comment). */
export function barePool(settings: BenchSettings, connectionLimit = 10): Pool {
  const url = new URL(settings.databaseUrl);
  url.pathname = `/${settings.coreDb}`;
  return mysql.createPool({
    uri: url.toString(),
    timezone: "Z",
    decimalNumbers: true,
    supportBigNumbers: true,
    charset: "utf8mb4_unicode_ci",
    connectionLimit,
  });
}
