/**
 * A database that can be frozen: the TCP proxy of database-proxy.ts in front of the test server,
 * which passes traffic through until `freeze()`, and from then on accepts connections and swallows
 * every byte without answering, as a hung database server does (issue 11, "No database
 * timeouts"). `thaw()` lets new connections through again. Also a port where nothing listens, for
 * a database that is down.
 *
 * @example
 *   const proxy = await startFreezableDatabase();
 *   const db = openCoreDatabase(proxy.url, name, { timeouts: { queryTimeoutMs: 300 } });
 *   proxy.freeze();
 */
import net, { type AddressInfo } from "node:net";
import { startDatabaseProxy, type DatabaseProxy } from "./database-proxy.ts";
import { TEST_DATABASE_URL } from "./databases.ts";

/** The proxy of database-proxy.ts, of which these tests use freeze() and thaw(). */
export type FreezableDatabase = DatabaseProxy;

/** Starts the proxy on an ephemeral port of 127.0.0.1 (database-proxy.ts). */
export const startFreezableDatabase: () => Promise<FreezableDatabase> = startDatabaseProxy;

/** A database URL on a port of 127.0.0.1 where nothing listens (connections are refused). */
export async function downDatabaseUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString().replace(/\/$/, "");
}
