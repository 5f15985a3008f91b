/**
 * The core API call the reconcile makes (spec, "Internal call: add-user"), over HTTP with the
 * chain's privileged token (platform-link.ts): `POST /internal/add-user` with `update_if_exists`
 * true and `X-Service-App-Hostname` = the chain's webshop app: creates the member or updates the
 * one with the same username, member_number or authentication_point_identifier; with
 * `if_unmodified_since` only when that member was not modified later (else the answer is the
 * member as the platform holds it, `precondition_failed`), so "the newer change wins" is one call.
 * Answers are checked against the shared contract (@service/shared/internal/add-user), so a core
 * API that answers something else fails loudly instead of writing nonsense into the shop.
 */
import { errorEnvelope } from "@service/shared/envelope";
import { addUserResponseSchema } from "@service/shared/internal/add-user";
import type { UserInfo } from "@service/shared/user-info";
import type { PlatformLink } from "./platform-link.ts";

/** How long one call may take before it counts as the platform being unavailable. */
export const PLATFORM_CALL_TIMEOUT_MS = 15_000;

/** How a core API call failed (PlatformCallError). */
export type PlatformCallErrorKind = "refused" | "invalid_answer" | "unauthorized" | "unavailable";

/**
 * A core API call that did not succeed.
 * - `kind` `refused`: the platform answered with an error about this customer (for example 547
 *   invalid_phone_number, 278 postalcode_invalid, user_already_exists): other customers go on;
 * - `unauthorized`: the token is not (or no longer) accepted (HTTP 401/403, 266
 *   access_token_invalid, 424 access_denied, 419 for an app hostname of another chain): the
 *   chain's link needs fixing, nothing of that chain can be sent;
 * - `invalid_answer`: HTTP 200, but the body is no JSON or not add-user's results (or, found by the
 *   reconcile, a member it cannot use): this customer is not synced, other customers go on;
 * - `unavailable`: no answer, a timeout, HTTP 5xx or 429, an error answer that is not the
 *   contract's error body, or a core API without `if_unmodified_since`: try again on a later pass.
 */
export class PlatformCallError extends Error {
  override name = "PlatformCallError";
  readonly kind: PlatformCallErrorKind;
  /** HTTP status; 0 without an answer */
  readonly status: number;
  /** the core API's error name (e.g. `invalid_phone_number`) when it gave one */
  readonly errorName: string | null;
  /** the core API's error code (e.g. 547) when it gave one */
  readonly errorCode: number | null;
  constructor(
    message: string,
    kind: PlatformCallErrorKind,
    status: number,
    errorName: string | null = null,
    errorCode: number | null = null,
  ) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.errorName = errorName;
    this.errorCode = errorCode;
  }
}

/** The add-user parameters the reconcile sends (JSON body; null clears a value). */
export type AddUserParams = Record<string, string | number | boolean | null>;

/** What the platform answered to add-user. */
export interface AddUserAnswer {
  /** the member as stored now (with preconditionFailed: as the platform had it, untouched) */
  user: UserInfo;
  /** whether an existing member was updated (false: a new member, or preconditionFailed) */
  updatedExisting: boolean;
  /** the member was modified after `ifUnmodifiedSince`: nothing was written */
  preconditionFailed: boolean;
}

/** Options of one add-user call. */
export interface AddUserOptions {
  /**
   * update an existing member only when its last_modified_date is not later than this moment
   * (add-user's `if_unmodified_since`, sent as RFC 3339 UTC); a new member is created as usual
   */
  ifUnmodifiedSince?: Date;
}

/** The core API of one linked chain. */
export interface PlatformClient {
  /**
   * `POST /internal/add-user` with update_if_exists true (and if_unmodified_since when given).
   * @throws PlatformCallError
   */
  addUser(params: AddUserParams, options?: AddUserOptions): Promise<AddUserAnswer>;
}

/** Error names that mean "this token may not do this" rather than "this customer's data". */
const UNAUTHORIZED = new Set(["no_valid_session", "access_token_invalid", "access_denied"]);

/** The PlatformCallError of an answer other than HTTP 200, sorted by its status and error body (PlatformCallError's kinds). */
function failure(method: string, path: string, status: number, json: unknown): PlatformCallError {
  const parsed = errorEnvelope.safeParse(json);
  const name = parsed.success ? parsed.data.error.name : null;
  const code = parsed.success ? parsed.data.error.code : null;
  const what = `${method} ${path}: HTTP ${status}${parsed.success ? ` ${code} ${name}: ${parsed.data.error.description}` : ""}`;
  if (status >= 500 || status === 429 || !parsed.success) return new PlatformCallError(what, "unavailable", status, name, code);
  // 419 on X-Service-App-Hostname: the hostname is no app of the token's chain (a link mistake).
  const hostnameRefused = name === "parameter_invalid" && /X-Service-App-Hostname/i.test(parsed.data.error.description);
  if (status === 401 || UNAUTHORIZED.has(name!) || hostnameRefused) return new PlatformCallError(what, "unauthorized", status, name, code);
  return new PlatformCallError(what, "refused", status, name, code);
}

/**
 * The client of `link`'s core API.
 * @param options.fetch the fetch to use (default: global fetch; keep-alive connections)
 * @param options.timeoutMs per call (default PLATFORM_CALL_TIMEOUT_MS)
 */
export function platformClient(
  link: Pick<PlatformLink, "coreApiUrl" | "accessToken" | "appHostname">,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): PlatformClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? PLATFORM_CALL_TIMEOUT_MS;
  const authorization = `Bearer ${link.accessToken}`;

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await doFetch(`${link.coreApiUrl}${path}`, {
        method,
        headers: {
          authorization,
          accept: "application/json",
          ...(method === "POST" && { "content-type": "application/json", "x-service-app-hostname": link.appHostname }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const why = (err as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (err as Error).message;
      throw new PlatformCallError(`${method} ${path}: ${why}`, "unavailable", 0);
    }
    const text = await res.text().catch(() => "");
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: judged by its status below
    }
    return { status: res.status, json };
  }

  return {
    async addUser(params, addOptions = {}) {
      const path = "/internal/add-user";
      const since = addOptions.ifUnmodifiedSince;
      const { status, json } = await call("POST", path, {
        ...params, update_if_exists: true, ...(since ? { if_unmodified_since: since.toISOString() } : {}),
      });
      if (status !== 200) throw failure("POST", path, status, json);
      const parsed = addUserResponseSchema.safeParse(json);
      if (!parsed.success) {
        throw new PlatformCallError(`POST ${path}: HTTP 200, but the answer is ${json === null ? "no JSON" : "not add-user's results"}`, "invalid_answer", status);
      }
      const results = parsed.data.results;
      if (since && results.precondition_failed === undefined) {
        // A core API without the condition would have overwritten the member unconditionally: say so.
        throw new PlatformCallError(`POST ${path}: the core API does not know if_unmodified_since (no precondition_failed in its answer)`, "unavailable", status);
      }
      return { user: results.user, updatedExisting: results.updated_existing_user, preconditionFailed: results.precondition_failed === true };
    },
  };
}
