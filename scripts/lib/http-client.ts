/**
 * A small client for the core API as a real client uses it: admin login over HTTP, then calls
 * with the session headers (`X-Service-Session-User-ID`, `X-Service-Session-Key`,
 * `X-Service-Chain-ID`). Internal calls go out form-encoded, Resources calls as JSON / query
 * strings; every answer is checked against the result wrapper (`result.code === 1`).
 */

export type Params = Record<string, string | number | boolean | null | undefined>;

/** A non-success answer of a service: HTTP status plus the error body (handbook, "error body"). */
export class ServiceCallError extends Error {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly body: unknown;

  constructor(method: string, url: string, status: number, body: unknown) {
    const err = (body as { error?: { code?: number; name?: string; description?: string } } | null)?.error;
    const detail = err ? `${err.code} ${err.name}: ${err.description}` : JSON.stringify(body)?.slice(0, 300);
    super(`${method} ${url} -> HTTP ${status} ${detail}`);
    this.method = method;
    this.url = url;
    this.status = status;
    this.body = body;
    this.name = "ServiceCallError";
  }
}

/** Encodes `params` as a query string / form body, leaving out null and undefined values. */
export function encodeParams(params: Params): string {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) out.append(k, String(v));
  return out.toString();
}

/**
 * Sends a request and parses the JSON answer (an empty body is null).
 * @returns status, parsed body and the wall-clock milliseconds of the round trip
 * @throws Error when the server cannot be reached, naming the URL
 */
export async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    const c = (err as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
    const cause = c?.code ?? c?.errors?.[0]?.code ?? c?.message ?? (err as Error).message;
    throw new Error(`cannot reach ${url} (${cause}); is the service running?`);
  }
  const text = await res.text();
  const ms = performance.now() - started;
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: res.status, body, ms };
}

/** The core API seen through HTTP. */
export class CoreApiClient {
  private headers: Record<string, string> = {};

  readonly baseUrl: string;

  /** @param baseUrl e.g. `http://127.0.0.1:8080` (no trailing slash) */
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /**
   * Logs an admin in (`POST /auth/login`) and keeps the session headers for chain `chainId`.
   * @throws ServiceCallError on a failed login
   */
  async login(username: string, password: string, chainId: number): Promise<void> {
    const results = await this.call("POST", "/auth/login", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    const info = results.session_info as { session_user_id: number | string; session_key: string };
    this.headers = {
      "X-Service-Session-User-ID": String(info.session_user_id),
      "X-Service-Session-Key": info.session_key,
      "X-Service-Chain-ID": String(chainId),
    };
  }

  /**
   * Calls as a service client from now on: a privileged access token (`Bearer {id}:{secret}`) on
   * chain `chainId`, instead of an admin session.
   */
  useToken(tokenId: string, secret: string, chainId: number): void {
    this.headers = { Authorization: `Bearer ${tokenId}:${secret}`, "X-Service-Chain-ID": String(chainId) };
  }

  /** Switches the chain named in `X-Service-Chain-ID`. */
  useChain(chainId: number): void {
    this.headers["X-Service-Chain-ID"] = String(chainId);
  }

  /**
   * `GET path?params`.
   * @returns the `results` object of the answer
   * @throws ServiceCallError when the answer is not a success
   */
  async get(path: string, params: Params = {}): Promise<any> {
    const qs = encodeParams(params);
    return this.call("GET", qs ? `${path}?${qs}` : path);
  }

  /** Like `get`, also returning the round-trip time in milliseconds (for measurements). */
  async timedGet(path: string, params: Params = {}): Promise<{ results: any; ms: number }> {
    const qs = encodeParams(params);
    return this.timedCall("GET", qs ? `${path}?${qs}` : path);
  }

  /**
   * Sends `params` form-encoded (`application/x-www-form-urlencoded`), as older clients of the
   * internal calls do.
   * @returns the `results` object of the answer
   * @throws ServiceCallError when the answer is not a success
   */
  async sendForm(method: "POST" | "PUT", path: string, params: Params): Promise<any> {
    return this.call(method, path, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: encodeParams(params),
    });
  }

  /**
   * Sends `body` as JSON (the Resources API's writes; nested objects such as provider_settings).
   * @returns the `results` object of the answer
   * @throws ServiceCallError when the answer is not a success
   */
  async sendJson(method: "POST" | "PUT" | "PATCH" | "DELETE", path: string, body?: unknown): Promise<any> {
    return this.call(method, path, body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  }

  private async call(method: string, path: string, init: RequestInit = {}): Promise<any> {
    return (await this.timedCall(method, path, init)).results;
  }

  private async timedCall(method: string, path: string, init: RequestInit = {}): Promise<{ results: any; ms: number }> {
    const url = `${this.baseUrl}${path}`;
    const { status, body, ms } = await fetchJson(url, {
      ...init,
      method,
      headers: { ...this.headers, ...(init.headers as Record<string, string> | undefined) },
    });
    if (status !== 200 || body?.result?.code !== 1) throw new ServiceCallError(method, url, status, body);
    return { results: body.results, ms };
  }
}
