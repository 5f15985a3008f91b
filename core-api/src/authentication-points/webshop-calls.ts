/**
 * The core API's calls to a chain's webshop connector (spec, "Webshop connector endpoints";
 * handbook, "Sync between the webshop and the platform"), over HTTP with the connector's
 * integration token as bearer:
 * - `POST {base_url}/rest/V1/service/customer/authenticate` {email, password, service_chain_id};
 * - `GET {base_url}/rest/V1/service/customer/user_info/{customer id}`.
 * Requests and responses are the shared contracts (`@service/shared/connector`). Every call has a
 * deadline (config WEBSHOP_TIMEOUT_MS, covering the body too); the shopper's address goes along as
 * X-Forwarded-For (the connector believes it on requests carrying the integration token, so its
 * authenticate limits count shoppers, not the core API) and the request id as X-Request-Id.
 *
 * A webshop that cannot be reached, does not answer in time, refuses the integration token or
 * answers anything but its contract is `service_unavailable` (904, HTTP 503): the caller writes
 * nothing. Details (URL, status, cause) go to the log, not to the shopper.
 */
import {
  authenticateResponseSchema, userInfoObjectSchema, type AuthenticateRequest, type UserInfoObject,
} from "@service/shared/connector";
import type { z } from "zod";
import { ServiceError } from "../http/service-error.ts";
import type { Logger } from "../logger.ts";
import type { WebshopEndpoint } from "./authentication-point-repository.ts";

/** Path prefix of the connector's customer endpoints. */
export const WEBSHOP_CUSTOMER_PATH = "/rest/V1/service/customer";

/** How the calls are made. */
export interface WebshopCallOptions {
  /** outbound HTTP (AppDeps.fetch); default globalThis.fetch */
  fetch?: typeof fetch;
  /** deadline of one call, body included, in milliseconds */
  timeoutMs: number;
  /** the shopper's address, sent as X-Forwarded-For; null when unknown */
  clientIp?: string | null;
  /** sent as X-Request-Id */
  requestId?: string;
  /** where failures are reported */
  logger?: Pick<Logger, "warn" | "error">;
}

/** What the webshop says about a shopper's email and password. */
export type WebshopAuthentication =
  | { outcome: "authenticated"; customerId: number }
  /** wrong password, unknown email, locked or inactive account: one outcome, on purpose */
  | { outcome: "refused" }
  /** the connector's per-address limit (HTTP 429) */
  | { outcome: "throttled"; retryAfterSeconds: number };

const UNAVAILABLE = "Login through the webshop is unavailable right now: the webshop";

/**
 * Checks a shopper's credentials with the webshop's `authenticate`.
 * @param credentials.email the username sent to the core API's login
 * @returns authenticated (with the webshop customer id), refused, or throttled
 * @throws ServiceError service_unavailable (904, HTTP 503) when the webshop cannot be reached,
 *   times out, refuses the integration token or answers outside its contract
 */
export async function webshopAuthenticate(
  endpoint: WebshopEndpoint,
  credentials: { email: string; password: string },
  options: WebshopCallOptions,
): Promise<WebshopAuthentication> {
  const body: AuthenticateRequest = { email: credentials.email, password: credentials.password, service_chain_id: endpoint.chainId };
  const res = await callWebshop(endpoint, "POST", "/authenticate", body, options);
  if (res.status === 429) {
    const seconds = Number(res.headers.get("retry-after"));
    return { outcome: "throttled", retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60 };
  }
  const answer = expectJson(res, authenticateResponseSchema, "authenticate", options);
  if (!answer.authenticated) return { outcome: "refused" };
  if (answer.customer_id === null) throw unavailable(`answered authenticate without a customer id`, { url: res.url }, options);
  return { outcome: "authenticated", customerId: answer.customer_id };
}

/**
 * The webshop's user info object of customer `customerId` (`user_info/{customerId}`).
 * @throws ServiceError service_unavailable (904, HTTP 503) as webshopAuthenticate, also when the
 *   customer is not found (it was authenticated a moment ago)
 */
export async function webshopUserInfo(endpoint: WebshopEndpoint, customerId: number, options: WebshopCallOptions): Promise<UserInfoObject> {
  const res = await callWebshop(endpoint, "GET", `/user_info/${customerId}`, undefined, options);
  return expectJson(res, userInfoObjectSchema, "user_info", options);
}

/** A webshop answer whose body was read within the deadline. */
interface WebshopAnswer {
  url: string;
  status: number;
  headers: Headers;
  /** the parsed JSON body; undefined when it is not JSON */
  json: unknown;
}

async function callWebshop(
  endpoint: WebshopEndpoint,
  method: "GET" | "POST",
  path: string,
  body: unknown,
  options: WebshopCallOptions,
): Promise<WebshopAnswer> {
  const url = `${endpoint.baseUrl}${WEBSHOP_CUSTOMER_PATH}${path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${endpoint.integrationToken}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (options.clientIp) headers["x-forwarded-for"] = options.clientIp;
  if (options.requestId) headers["x-request-id"] = options.requestId;
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const res = await (options.fetch ?? globalThis.fetch)(url, {
      method, headers, signal, redirect: "error", ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { url, status: res.status, headers: res.headers, json };
  } catch (err) {
    if (signal.aborted) throw unavailable(`did not answer within ${options.timeoutMs} ms`, { url }, options);
    throw unavailable("cannot be reached", { url, err }, options);
  }
}

/** The body of a 2xx answer in its contract. */
function expectJson<S extends z.ZodType>(res: WebshopAnswer, schema: S, call: string, options: WebshopCallOptions): z.output<S> {
  if (res.status === 401) throw unavailable("refused the core API's integration token", { url: res.url, status: res.status }, options, "error");
  if (res.status < 200 || res.status > 299) throw unavailable(`answered ${call} with HTTP ${res.status}`, { url: res.url, status: res.status, body: res.json }, options);
  const parsed = schema.safeParse(res.json);
  if (!parsed.success) throw unavailable(`answered ${call} outside its contract`, { url: res.url, issues: parsed.error.issues.slice(0, 3) }, options, "error");
  return parsed.data;
}

function unavailable(
  what: string,
  details: Record<string, unknown>,
  options: WebshopCallOptions,
  level: "warn" | "error" = "warn",
): ServiceError {
  options.logger?.[level]({ ...details, requestId: options.requestId }, `webshop call failed: the webshop ${what}`);
  return new ServiceError("service_unavailable", `${UNAVAILABLE} ${what}. Try again later.`);
}
