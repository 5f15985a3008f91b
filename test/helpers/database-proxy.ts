/**
 * A TCP proxy in front of the test database server, for tests of a database that misbehaves
 * without touching the server every other test file shares:
 * - `freeze()` / `thaw()`: a hung server: from `freeze()` on, connections are accepted and every
 *   byte is swallowed without an answer; `thaw()` lets new connections through again;
 * - `down()` / `up()`: a restarted server (the database restarted in the middle of a sync):
 *   `down()` cuts every open connection at once, both ways (the server sees its clients go and
 *   rolls back their open transactions, as a restart does; the clients see the connection lost,
 *   possibly after a statement was sent and before its answer came back) and refuses every new
 *   connection until `up()`: accepted and reset at once (the client sees ECONNRESET), and counted
 *   (`refused()`), so a test can wait until a service has tried to reach the database while it was
 *   away.
 * Services reach the database through `url` (pass it as their DATABASE_URL, child processes
 * included); the test itself keeps its own connections on TEST_DATABASE_URL for its checks. A
 * proxy per service tells the services' attempts apart; a restart then takes them all down.
 *
 * @example
 *   const proxy = await startDatabaseProxy();
 *   const db = openConnectorDatabase(proxy.url, name);
 *   await proxy.down();   // every connection of `db` is lost, new ones are refused
 *   proxy.up();           // the database is back
 *
 * Also downDatabaseUrl(): a port where nothing listens, for a database that is down from the start.
 */
import net, { type AddressInfo } from "node:net";
import { TEST_DATABASE_URL } from "./databases.ts";
import type { DatabaseTimeouts } from "@service/shared/node";

/**
 * A served pool's own timeouts for the tests that freeze the proxy to reach a request's deadline:
 * well after those deadlines and their slack (at most 700 + 1,500 ms), so only the deadline can end
 * a request early; shorter than the 10 s defaults only so that the connections opened while
 * frozen end sooner after the thaw.
 */
export const FROZEN_POOL_TIMEOUTS = { queryTimeoutMs: 4_000, acquireTimeoutMs: 4_000, connectTimeoutMs: 4_000 } satisfies DatabaseTimeouts;

export interface DatabaseProxy {
  /** `mysql://user:pass@127.0.0.1:<proxy port>` with the credentials of TEST_DATABASE_URL */
  url: string;
  /** client connections open through the proxy now */
  connections(): number;
  /** client connections accepted since the proxy started (reconnects show here) */
  accepted(): number;
  /** connections refused while down, since the proxy started */
  refused(): number;
  /** from now on nothing is answered, on open connections and new ones alike */
  freeze(): void;
  /** new connections reach the database again (connections opened while frozen stay dead) */
  thaw(): void;
  /**
   * The database goes away: every open connection is destroyed at once, on both sides, and new
   * ones are reset as they come until up(). Resolves once every cut socket is closed.
   */
  down(): Promise<void>;
  /** The database is back: new connections pass through again. */
  up(): void;
  close(): Promise<void>;
}

/** Starts the proxy on an ephemeral port of 127.0.0.1. */
export async function startDatabaseProxy(): Promise<DatabaseProxy> {
  const target = new URL(TEST_DATABASE_URL);
  let frozen = false;
  let isDown = false;
  let accepted = 0;
  let refused = 0;
  /** client sockets, each with its upstream once connected */
  const pairs = new Map<net.Socket, net.Socket | null>();
  const server = net.createServer((client) => {
    client.on("error", () => {});
    if (isDown) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    accepted++;
    pairs.set(client, null);
    client.on("close", () => {
      pairs.get(client)?.destroy();
      pairs.delete(client);
    });
    if (frozen) return; // accepted, never answered
    const upstream = net.connect(Number(target.port || 3306), target.hostname);
    pairs.set(client, upstream);
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => client.destroy());
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

  /** Destroys every connection, both sides, and resolves once their sockets are closed. */
  const cutAll = async () => {
    const closing: Array<Promise<void>> = [];
    for (const [client, upstream] of pairs) {
      for (const socket of [client, upstream]) {
        if (!socket || socket.destroyed) continue;
        closing.push(new Promise((resolve) => socket.once("close", () => resolve())));
        socket.destroy();
      }
    }
    await Promise.all(closing);
  };

  return {
    url: url.toString().replace(/\/$/, ""),
    connections: () => pairs.size,
    accepted: () => accepted,
    refused: () => refused,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    async down() {
      isDown = true;
      await cutAll();
    },
    up() {
      isDown = false;
    },
    async close() {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await cutAll();
      await stopped;
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
