/**
 * A database that can be frozen: a TCP proxy in front of the test server that passes traffic
 * through until `freeze()`, and from then on accepts connections and swallows every byte without
 * answering, as a hung database server does (issue 11, "No database timeouts"). `thaw()` lets
 * new connections through again. Also a port where nothing listens, for a database that is down.
 *
 * @example
 *   const proxy = await startFreezableDatabase();
 *   const db = openCoreDatabase(proxy.url, name, { timeouts: { queryTimeoutMs: 300 } });
 *   proxy.freeze();
 */
import net, { type AddressInfo } from "node:net";
import { TEST_DATABASE_URL } from "./databases.ts";

export interface FreezableDatabase {
  /** `mysql://user:pass@127.0.0.1:<proxy port>` with the credentials of TEST_DATABASE_URL */
  url: string;
  /** from now on nothing is answered, on open connections and new ones alike */
  freeze(): void;
  /** new connections reach the database again (connections opened while frozen stay dead) */
  thaw(): void;
  close(): Promise<void>;
}

/** Starts the proxy on an ephemeral port of 127.0.0.1. */
export async function startFreezableDatabase(): Promise<FreezableDatabase> {
  const target = new URL(TEST_DATABASE_URL);
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    if (frozen) return; // accepted, never answered
    const upstream = net.connect(Number(target.port || 3306), target.hostname);
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.on("data", (chunk) => {
      if (!frozen) client.write(chunk);
    });
    client.on("data", (chunk) => {
      if (!frozen) upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString().replace(/\/$/, ""),
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

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
