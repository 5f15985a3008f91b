/**
 * The one-line error of a service that cannot bind its address, on Node and on Deno, naming the
 * variable to change: the port's (CORE_API_PORT, CONNECTOR_PORT) when the port is in use or
 * needs privileges, HOST when the address is not this machine's or does not resolve at all.
 * Example: `core-api cannot listen on 127.0.0.1:8080: the port is in use (CORE_API_PORT)`.
 */
import { lookup } from "node:dns/promises";

/** An Error whose message is that one line; `code` is one of LISTEN_ERROR_CODES. */
export type ListenError = Error & { code: string };

/**
 * The `code` of a ListenError: the system's for the causes it names, ENOTFOUND for any host that
 * does not resolve, ELISTEN for anything else. It survives the worker processes' reports, so
 * `npm start` knows the one line is all there is to say.
 */
export const LISTEN_ERROR_CODES: readonly string[] = ["EADDRINUSE", "EACCES", "EADDRNOTAVAIL", "ENOTFOUND", "ELISTEN"];

/**
 * The error for `err`, raised binding `host`:`port` of `service`.
 * @param portVariable the variable that sets the port (`CORE_API_PORT`, `CONNECTOR_PORT`)
 * @param err Node's listen error (`code` EADDRINUSE, EACCES, EADDRNOTAVAIL, ENOTFOUND, ...) or
 *   Deno.serve's (`code` EADDRINUSE, a PermissionDenied, a failed address lookup)
 */
export function listenError(service: string, portVariable: string, host: string, port: number, err: unknown): ListenError {
  const code = (err as { code?: string } | null)?.code;
  const name = (err as Error | null)?.name;
  const message = (err as Error | null)?.message ?? String(err);
  const [why, variable, listenCode] = code === "EADDRINUSE" || name === "AddrInUse" ? ["the port is in use", portVariable, "EADDRINUSE"]
    : code === "EACCES" || name === "PermissionDenied" ? ["permission denied (ports below 1024 need privileges)", portVariable, "EACCES"]
    : code === "EADDRNOTAVAIL" || name === "AddrNotAvailable" ? ["the address is not one of this machine's", "HOST", "EADDRNOTAVAIL"]
    : code === "ENOTFOUND" || code === "EAI_AGAIN" || /lookup address|getaddrinfo/i.test(message) ? ["HOST is no IP address or host name that resolves", "HOST", "ENOTFOUND"]
    : [message.split("\n")[0], `HOST, ${portVariable}`, "ELISTEN"];
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return Object.assign(new Error(`${service} cannot listen on ${urlHost}:${port}: ${why} (${variable})`), { name: "ListenError", code: listenCode! });
}

/**
 * Looks `host` up as a listen on it would (dns.lookup, so /etc/hosts counts), so that a start can
 * refuse a HOST that resolves to nothing before it does any other work (waiting for the database,
 * migrating), with the line its listen would have given. Only a definite "no such name"
 * (ENOTFOUND) refuses: a resolver that is not answering yet (EAI_AGAIN, as in a container whose
 * DNS comes up after it) is left to the listen, after the other work.
 * @throws ListenError (code ENOTFOUND, naming HOST) when `host` does not resolve
 */
export async function assertHostResolves(service: string, portVariable: string, host: string, port: number): Promise<void> {
  try {
    await lookup(host);
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === "ENOTFOUND") throw listenError(service, portVariable, host, port, err);
  }
}
