/**
 * A core app whose database misbehaves on demand: a throwaway database with a chain and an admin
 * (read and write on it), reached by the app through a database proxy (database-proxy.ts: freeze,
 * thaw, down, up) while the test keeps its own connections straight to the server. For the tests
 * of a frozen or unreachable database (http/database-unavailable.test.ts,
 * http/request-deadline.test.ts).
 *
 * @example
 *   const world = await startCoreBehindProxy({ prefix: "core_frozen", name: "frozen", logger });
 *   world.proxy.freeze();
 *   await world.app.request(`/internal/get-businesses?chain_id=${world.chainId}`, { headers: world.headers });
 *   afterAll(() => world?.close());
 */
import type { DatabaseTimeouts } from "@service/shared/node";
import { createApp } from "../../core-api/src/app.ts";
import { loadCoreConfig } from "../../core-api/src/config.ts";
import { openCoreDatabase, type CoreDatabase } from "../../core-api/src/db/client.ts";
import { createAdmin, createChain, grantAccess } from "../../core-api/src/db/seed.ts";
import type { Logger } from "../../core-api/src/logger.ts";
import { loginAs } from "./core.ts";
import { createMigratedDatabase } from "./database-templates.ts";
import { startDatabaseProxy, type DatabaseProxy } from "./database-proxy.ts";
import { dropDatabase, TEST_DATABASE_URL, throwawayDatabaseName } from "./databases.ts";

export interface CoreBehindProxy {
  /** the throwaway database */
  dbName: string;
  /** the test's own connections, straight to the server (set-up and checks) */
  direct: CoreDatabase;
  proxy: DatabaseProxy;
  /** the app's database: through the proxy, two connections */
  served: CoreDatabase;
  app: ReturnType<typeof createApp>;
  chainId: number;
  /** the admin session's headers, with X-Service-Chain-ID of the chain */
  headers: Record<string, string>;
  /** closes the pools and the proxy and drops the database */
  close(): Promise<void>;
}

/**
 * Starts the app behind its proxy.
 * @param options.prefix of the throwaway database's name
 * @param options.name the chain is `<name> chain`, the admin `<name>@example.com`
 * @param options.env the app's configuration variables besides CORE_DB_NAME (REQUEST_DEADLINE_MS ...)
 * @param options.timeouts the served pool's timeouts (default: the pool's defaults, 10 s)
 * @throws Error when the admin cannot log in
 */
export async function startCoreBehindProxy(options: {
  prefix: string;
  name: string;
  logger: Logger;
  env?: Record<string, string>;
  timeouts?: Partial<DatabaseTimeouts>;
}): Promise<CoreBehindProxy> {
  const dbName = throwawayDatabaseName(options.prefix);
  await createMigratedDatabase("core", dbName);
  const direct = openCoreDatabase(TEST_DATABASE_URL, dbName);
  const closing: Array<() => Promise<void>> = [() => direct.close()];
  const close = async () => {
    for (const step of closing.reverse()) await step();
    await dropDatabase(dbName);
  };
  try {
    const chainId = await createChain(direct.db, `${options.name} chain`);
    const username = `${options.name}@example.com`;
    const adminId = await createAdmin(direct.db, { username, password: "pw-secret" });
    await grantAccess(direct.db, adminId, chainId, { read: true, write: true });
    const proxy = await startDatabaseProxy();
    closing.push(() => proxy.close());
    const served = openCoreDatabase(proxy.url, dbName, { connectionLimit: 2, ...(options.timeouts ? { timeouts: options.timeouts } : {}) });
    closing.push(() => served.close());
    const app = createApp({ db: served.db, config: loadCoreConfig({ ...options.env, CORE_DB_NAME: dbName }), logger: options.logger });
    // Logged in on the direct database with the default deadline: a password hash on a busy
    // machine may take longer than a test's short one, and the proxy is not what is tested here.
    const login = createApp({ db: direct.db, config: loadCoreConfig({ CORE_DB_NAME: dbName }), logger: options.logger });
    const session = await loginAs((path, init) => login.request(path, init), username, "pw-secret");
    if (session.status !== 200) throw new Error(`startCoreBehindProxy: the admin's login answered ${session.status}`);
    return { dbName, direct, proxy, served, app, chainId, headers: { ...session.headers, "X-Service-Chain-ID": String(chainId) }, close };
  } catch (err) {
    await close();
    throw err;
  }
}
