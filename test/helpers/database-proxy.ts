/**
 * A TCP proxy in front of the test database server, for tests of a database that misbehaves
 * without touching the server every other test file shares:
 * - `freeze()` / `thaw()`: a hung server (issue 11, "No database timeouts"): from `freeze()` on,
 *   connections are accepted and every byte is swallowed without an answer; `thaw()` lets new
 *   connections through again;
 * - `down()` / `up()`: a restarted server (issue 10, the database restarted in the middle of a
 *   sync): `down()` cuts every open connection at once, both ways (the server sees its clients go
 *   and rolls back their open transactions, as a restart does; the clients see the connection
 *   lost, possibly after a statement was sent and before its answer came back) and refuses new
 *   connections (the port stops listening: ECONNREFUSED) until `up()`, which listens on the same
 *   port again.
 * Services reach the database through `url` (pass it as their DATABASE_URL, child processes
 * included); the test itself keeps its own connections on TEST_DATABASE_URL for its checks.
 *
 * @example
 *   const proxy = await startDatabaseProxy();
 *   const db = openConnectorDatabase(proxy.url, name);
 *   await proxy.down();   // every connection of `db` is lost, new ones are refused
 *   await proxy.up();     // the database is back
 */
import net, { type AddressInfo } from "node:net";
import { TEST_DATABASE_URL } from "./databases.ts";

export interface DatabaseProxy {
  /** `mysql://user:pass@127.0.0.1:<proxy port>` with the credentials of TEST_DATABASE_URL */
  url: string;
  /** client connections open through the proxy now */
  connections(): number;
  /** client connections accepted since the proxy started (reconnects show here) */
  accepted(): number;
  /** from now on nothing is answered, on open connections and new ones alike */
  freeze(): void;
  /** new connections reach the database again (connections opened while frozen stay dead) */
  thaw(): void;
  /**
   * The database goes away: every open connection is destroyed at once, on both sides, and the
   * port refuses connections until up(). Resolves once nothing is open and nothing listens.
   */
  down(): Promise<void>;
  /**
   * The database is back: the same port accepts and passes connections through again.
   * @throws Error when the port was taken by something else meanwhile
   */
  up(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the proxy on an ephemeral port of 127.0.0.1. */
export async function startDatabaseProxy(): Promise<DatabaseProxy> {
  const target = new URL(TEST_DATABASE_URL);
  let frozen = false;
  let accepted = 0;
  /** client sockets, each with its upstream once connected */
  const pairs = new Map<net.Socket, net.Socket | null>();
  const server = net.createServer((client) => {
    accepted++;
    pairs.set(client, null);
    client.on("error", () => {});
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
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const url = new URL(TEST_DATABASE_URL);
  url.hostname = "127.0.0.1";
  url.port = String(port);

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
  const stopListening = () => new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });

  return {
    url: url.toString().replace(/\/$/, ""),
    connections: () => pairs.size,
    accepted: () => accepted,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    async down() {
      // Stop accepting first, so no connection slips in between the cut and the refusal.
      const stopped = stopListening();
      await cutAll();
      await stopped;
    },
    async up() {
      if (server.listening) return;
      await listen(port).catch((err: NodeJS.ErrnoException) => {
        throw new Error(`the database proxy cannot listen on port ${port} again: ${err.code ?? err.message}`);
      });
    },
    async close() {
      const stopped = stopListening();
      await cutAll();
      await stopped;
    },
  };
}
