/**
 * Command-line flags and environment for the demo and the benchmark (handbook, "Configuration").
 * Flags win over the environment: `--admin-user x` or `--admin-user=x`; a flag without a value
 * is `true`.
 */

import { portVariable } from "@service/shared/node";

export type Flags = Map<string, string | true>;

/** The port variables of the two services and their defaults (handbook: 8080, 8081). */
const SERVICE_PORTS = { CORE_API_PORT: 8080, CONNECTOR_PORT: 8081 } as const;

/**
 * The base URL of a service `npm start` runs on this machine: `http://127.0.0.1:<port>` with the
 * port its variable sets (as `npm start` reads it), else the default port.
 * @param variable `CORE_API_PORT` or `CONNECTOR_PORT`
 * @param env the environment (default `process.env`)
 * @throws Error naming the variable when it is not a port number, or is 0 (the service then
 *   picks a free port, which only its own output tells: give CORE_API_URL / CONNECTOR_URL)
 */
export function localServiceUrl(variable: keyof typeof SERVICE_PORTS, env: NodeJS.ProcessEnv = process.env): string {
  const raw = env[variable] === "" ? undefined : env[variable];
  const parsed = portVariable(SERVICE_PORTS[variable]).safeParse(raw);
  if (!parsed.success) throw new Error(`${variable}=${raw}: ${parsed.error.issues[0]?.message ?? "must be a port number"}`);
  if (parsed.data === 0) throw new Error(`${variable}=0 lets the service pick a free port: give ${variable.replace("_PORT", "_URL")} (the URL it printed)`);
  return `http://127.0.0.1:${parsed.data}`;
}

/**
 * Parses `--name value`, `--name=value` and bare `--name` flags.
 * @param argv arguments after the script name (default `process.argv.slice(2)`)
 * @throws Error for a positional argument, which no script here takes
 */
export function parseFlags(argv: string[] = process.argv.slice(2)): Flags {
  const flags: Flags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith("--")) throw new Error(`unexpected argument: ${arg}`);
    const eq = arg.indexOf("=");
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) {
      flags.set(arg.slice(2), argv[++i]!);
    } else {
      flags.set(arg.slice(2), true);
    }
  }
  return flags;
}

/** A string flag, else the environment variable `envName`, else `fallback`. */
export function stringOption(flags: Flags, flag: string, envName: string | null, fallback?: string): string | undefined {
  const v = flags.get(flag);
  if (typeof v === "string") return v;
  const env = envName ? process.env[envName] : undefined;
  return env !== undefined && env !== "" ? env : fallback;
}

/**
 * A numeric flag (or environment variable), else `fallback`.
 * @throws Error when the value is not a finite number
 */
export function numberOption(flags: Flags, flag: string, envName: string | null, fallback: number): number {
  const raw = stringOption(flags, flag, envName);
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ""));
  if (!Number.isFinite(n)) throw new Error(`--${flag} must be a number, got ${raw}`);
  return n;
}

/** Whether the bare flag `--flag` (or `--flag=true`) was given. */
export function booleanOption(flags: Flags, flag: string): boolean {
  const v = flags.get(flag);
  return v === true || v === "true" || v === "1";
}

/**
 * Which of `count` numbered steps to run: `--<flag> 6`, `--<flag> 4,6` or `--<flag> 3-6` (lists
 * and ranges mixed, e.g. `1,4-6`); every step 1..count when the flag is absent.
 * @returns the step numbers, each in 1..count
 * @throws Error naming the flag when a part is not a step number or a range of them in 1..count,
 *   or the flag is given without a value
 */
export function stepsOption(flags: Flags, flag: string, count: number): Set<number> {
  const raw = flags.get(flag);
  const all = new Set(Array.from({ length: count }, (_, i) => i + 1));
  if (raw === undefined) return all;
  const bad = () => new Error(`--${flag} must list steps 1-${count}, for example 6, 4,6 or 3-6 (got ${raw === true ? "no value" : raw})`);
  if (raw === true) throw bad();
  const steps = new Set<number>();
  for (const part of raw.split(",")) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw bad();
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || to > count || from > to) throw bad();
    for (let s = from; s <= to; s++) steps.add(s);
  }
  return steps;
}

/**
 * Base URLs of the running services, without a trailing slash: the flag, else CORE_API_URL /
 * CONNECTOR_URL, else 127.0.0.1 at CORE_API_PORT / CONNECTOR_PORT (localServiceUrl).
 */
export function serviceUrls(flags: Flags): { coreApiUrl: string; connectorUrl: string } {
  const trim = (u: string) => u.replace(/\/+$/, "");
  return {
    coreApiUrl: trim(stringOption(flags, "core-api-url", "CORE_API_URL") ?? localServiceUrl("CORE_API_PORT")),
    connectorUrl: trim(stringOption(flags, "connector-url", "CONNECTOR_URL") ?? localServiceUrl("CONNECTOR_PORT")),
  };
}

/**
 * The credentials `npm start` prints: the demo admin and the connector's integration token.
 * @throws Error naming the missing variable / flag when `required` lists it
 */
export function seedCredentials(
  flags: Flags,
  required: Array<"admin" | "token"> = ["admin", "token"],
): { adminUser: string; adminPassword: string; token: string } {
  const adminUser = stringOption(flags, "admin-user", "SEED_ADMIN_USERNAME") ?? "";
  const adminPassword = stringOption(flags, "admin-password", "SEED_ADMIN_PASSWORD") ?? "";
  const token = stringOption(flags, "token", "SEED_INTEGRATION_TOKEN") ?? "";
  if (required.includes("admin") && (!adminUser || !adminPassword)) {
    throw new Error(
      "admin credentials missing: set SEED_ADMIN_USERNAME and SEED_ADMIN_PASSWORD (npm start prints them) " +
        "or pass --admin-user and --admin-password",
    );
  }
  if (required.includes("token") && !token) {
    throw new Error("integration token missing: set SEED_INTEGRATION_TOKEN (npm start prints it) or pass --token");
  }
  return { adminUser, adminPassword, token };
}
