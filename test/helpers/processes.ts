/**
 * Real processes for tests of the operator scripts (start, migrate, admin ...): run a script to its
 * end, or start a long-running one and wait for a line of its output.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const TSX = `${ROOT}node_modules/.bin/tsx`;

export interface Finished {
  /** exit status; null when killed by a signal */
  code: number | null;
  stdout: string;
  stderr: string;
  /** wall time from spawn to exit */
  ms: number;
}

/**
 * A small, explicit environment: PATH and HOME (npm and tsx need them), WEB_CONCURRENCY=1, plus `vars`, so a test is not
 * affected by the developer's own DATABASE_URL, ports or SEED_* variables.
 */
export function scriptEnv(vars: Record<string, string>): Record<string, string> {
  // One serving process unless a test asks for more: a SIGKILL then reaches the process that serves.
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", NO_COLOR: "1", WEB_CONCURRENCY: "1", ...vars };
}

/** Runs `command args` in the repository root until it exits (killed after `timeoutMs`). */
export function run(command: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Finished> {
  const started = Date.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Runs `tsx <script> args` (a path from the repository root) until it exits. */
export function runScript(script: string, args: string[], env: Record<string, string>, timeoutMs?: number): Promise<Finished> {
  return run(TSX, [script, ...args], env, timeoutMs);
}

/** A long-running process whose output is collected as it comes. */
export interface Running {
  child: ChildProcess;
  output(): string;
  /** resolves with the first match of `pattern` in the output so far or to come */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** resolves with the exit status (null: killed by a signal) and when it came (epoch ms) */
  exited(): Promise<{ code: number | null; at: number }>;
}

/** Starts `command args` in the repository root. */
export function start(command: string, args: string[], env: Record<string, string>): Running {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const listeners = new Set<() => void>();
  const onData = (c: Buffer) => {
    output += c.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exit = new Promise<{ code: number | null; at: number }>((resolve) => child.on("exit", (code) => resolve({ code, at: Date.now() })));
  return {
    child,
    output: () => output,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(output);
          if (!m) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(m);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        void exit.then(() => check());
        check();
      });
    },
    exited: () => exit,
  };
}

/** A TCP port on 127.0.0.1 that nothing listens on (taken and released at once). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether something accepts TCP connections at `url`'s host and port. */
export async function accepts(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    if (code === "ECONNREFUSED") return false;
    throw err;
  }
}
