/**
 * A core API on its own throwaway database, driven through `app.request()` (no socket).
 *
 * @example
 *   const core = await startCore();
 *   const admin = await core.admin({ super_user: true });
 *   const res = await core.request("/internal/get-businesses?chain_id=" + core.chainId, { headers: admin.headers });
 *   afterAll(() => core.close());
 */
import { loadCoreConfig } from "../../core-api/src/config.ts";
import { createApp } from "../../core-api/src/app.ts";
import { openCoreDatabase, type CoreDb } from "../../core-api/src/db/client.ts";
import { createAdmin, createChain, grantAccess } from "../../core-api/src/db/seed.ts";
import type { AccessLevels } from "../../core-api/src/db/permissions.ts";
import type { AppDeps } from "../../core-api/src/auth/request-context.ts";
import { createMigratedDatabase } from "./database-templates.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./databases.ts";
import { countStatements, type StatementCounter } from "./statements.ts";

export interface TestAdmin {
  id: number;
  username: string;
  password: string;
  /** session headers plus X-Service-Chain-ID of the core's chain */
  headers: Record<string, string>;
}

export interface TestCore {
  db: CoreDb;
  dbName: string;
  /** a chain created for the test */
  chainId: number;
  request(path: string, init?: RequestInit): Promise<Response>;
  /** request and parse the JSON body */
  json(path: string, init?: RequestInit): Promise<{ status: number; body: any }>;
  /** a new admin with `levels` on `chainId` (default the core's chain), logged in */
  admin(levels: Partial<AccessLevels>, chainId?: number): Promise<TestAdmin>;
  createChain(name?: string): Promise<number>;
  /** the SQL statements the core's pool has sent (reset it before the request under test) */
  statements: StatementCounter;
  close(): Promise<void>;
}

/** The SERVICE_SECRET_KEY test services run with. */
export const TEST_SECRET_KEY = "test-service-secret-key-0123456789abcdef";

let adminSeq = 0;

/** Optional fakes and settings of startCore. */
export interface StartCoreOptions extends Pick<AppDeps, "clock" | "clientAddress" | "fetch" | "publicFetch" | "sleep" | "logger" | "resolveHost" | "outboxWake"> {
  /** extra configuration variables, for example `{ TRUSTED_PROXIES: "10.0.0.0/8" }` */
  env?: Record<string, string>;
}

/** Starts a core API on a fresh, migrated database (a copy of the run's template, database-templates.ts) with one chain. */
export async function startCore(options: StartCoreOptions = {}): Promise<TestCore> {
  const dbName = throwawayDatabaseName("core");
  await createMigratedDatabase("core", dbName);
  // Request lines are noise in test output: warnings and errors only, unless LOG_LEVEL says otherwise.
  const config = loadCoreConfig({
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", SERVICE_SECRET_KEY: TEST_SECRET_KEY, ...options.env, DATABASE_URL: TEST_DATABASE_URL, CORE_DB_NAME: dbName,
  });
  const database = openCoreDatabase(TEST_DATABASE_URL, dbName);
  const { env: _env, ...fakes } = options;
  const app = createApp({ db: database.db, config, ...fakes });
  const chainId = await createChain(database.db, "Test Chain");
  const statements = countStatements(database.pool);
  const request = async (path: string, init?: RequestInit) => app.request(path, init);
  const core: TestCore = {
    db: database.db,
    dbName,
    chainId,
    request,
    async json(path, init) {
      const res = await request(path, init);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async admin(levels, forChain = chainId) {
      const username = `admin${++adminSeq}-${dbName}@example.com`;
      const password = `pw-${adminSeq}-secret`;
      const id = await createAdmin(database.db, { username, password, firstname: "Test", lastname: `Admin ${adminSeq}` });
      await grantAccess(database.db, id, forChain, levels);
      const session = await loginAs(request, username, password);
      if (session.status !== 200) throw new Error(`login failed for ${username}: ${session.status}`);
      return { id, username, password, headers: { ...session.headers, "X-Service-Chain-ID": String(forChain) } };
    },
    createChain: (name = "Other Chain") => createChain(database.db, name),
    statements,
    async close() {
      await database.close();
      await dropDatabase(dbName);
    },
  };
  return core;
}

/**
 * Logs `username` in through POST /auth/login of a core app.
 * @param request the app's `request` (Hono's in-process request)
 * @returns the answer's status and, when it granted a session, the session headers to send
 */
export async function loginAs(
  request: (path: string, init: RequestInit) => Response | Promise<Response>,
  username: string,
  password: string,
): Promise<{ status: number; headers: Record<string, string> }> {
  const res = await request("/auth/login", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password }),
  });
  const info = ((await res.json()) as any).results?.session_info;
  return {
    status: res.status,
    headers: info ? { "X-Service-Session-User-ID": String(info.session_user_id), "X-Service-Session-Key": info.session_key } : {},
  };
}
