/**
 * The HTTP floors of the throughput section (bench/throughput.ts), started by the bench as a
 * child process of its own, like the services it is compared with: what the same machine does
 * with the same framework and driver and nothing else.
 *
 * - `GET /hello`: Hono hello-world on @hono/node-server (the cost of HTTP alone);
 * - `GET /business/:id`: the same plus one mysql2 primary-key select of a `businesses` row
 *   (a prepared statement on a pool of 10 connections, mysql2's default and the services' pool
 *   size per process), rendered as JSON.
 *
 * Environment: BENCH_PORT, DATABASE_URL, FLOOR_DB_NAME (the bench core database). Not a
 * product entry: `npm run bench` runs it and stops it.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import mysql from "mysql2/promise";

const port = Number(process.env.BENCH_PORT);
const pool = mysql.createPool({ uri: process.env.DATABASE_URL, database: process.env.FLOOR_DB_NAME, connectionLimit: 10 });

const app = new Hono();
app.get("/hello", (c) => c.text("Hello, World!"));
app.get("/business/:id", async (c) => {
  const [rows] = await pool.execute("SELECT * FROM businesses WHERE id = ?", [Number(c.req.param("id"))]);
  const row = (rows as unknown[])[0];
  return row ? c.json(row) : c.json({ error: "not found" }, 404);
});

const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => console.log(`floor server on 127.0.0.1:${port}`));
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
