/**
 * How a request path finds its route, and what a method no route takes answers (handbook,
 * "unknown or wrong-method path"; spec, "What the service does": internal calls live under
 * `/internal/...` and `/auth/...`).
 *
 * - One rule for the internal calls' spellings: `/internal/<call>` and `/auth/<call>`, each with or
 *   without a `.json` suffix (older clients append it), route to the call's declared path, so a
 *   call is registered, logged by route, counted in the metrics and documented once.
 * - A known path asked with another method: 13 (405), named for the method it needs
 *   (`http_request_method_non_POST_not_allowed`, ...).
 * - A path nothing serves: 544 `resource_not_found` (404), as the Resources API answers.
 */
import type { ErrorName } from "@service/shared";
import type { CallMethod } from "@service/shared/internal/call";
import { getPath } from "hono/utils/url";
import type { Env, Hono } from "hono";
import { ServiceError } from "./service-error.ts";

const WRONG_METHOD: Record<CallMethod, ErrorName> = {
  GET: "http_request_method_non_GET_not_allowed",
  POST: "http_request_method_non_POST_not_allowed",
  PUT: "http_request_method_non_PUT_not_allowed",
  DELETE: "http_request_method_non_DELETE_not_allowed",
};

/** A call's path spelled any way an older client does: either prefix, `.json` or not. */
const CALL_SPELLING = /^\/(?:internal|auth)\/([a-z][a-z-]*?)(?:\.json)?$/;

/**
 * The `getPath` of the app (Hono's option): the path a request is routed by. An internal call's
 * other spellings give its declared path; every other path is Hono's own reading.
 * @param calls each internal call's name and declared path (`add-user` -> `/internal/add-user`)
 */
export function callRoutingPath(calls: ReadonlyArray<{ name: string; path: string }>): (request: Request) => string {
  const declared = new Map(calls.map((c) => [c.name, c.path]));
  return (request) => {
    const path = getPath(request);
    if (!path.startsWith("/internal/") && !path.startsWith("/auth/")) return path;
    const name = CALL_SPELLING.exec(path)?.[1];
    return (name !== undefined && declared.get(name)) || path;
  };
}

/**
 * The refusal of a request with a method the path does not take.
 * @returns ServiceError code 13 (405) named for `needed`
 */
export function wrongMethod(needed: CallMethod): ServiceError {
  return new ServiceError(WRONG_METHOD[needed]);
}

/**
 * Mounts, for every path registered with one method (`app.get`, `app.on`, ...), an answer to the
 * other methods: 13 (405) named for the method the path needs. Call it after every route is
 * registered. Paths mounted for every method (`app.all`: the Resources API, which answers an
 * unavailable operation with 544, and the internal calls, which check their method themselves)
 * are left alone. HEAD reaches a GET route (Hono serves it as GET without the body).
 */
export function answerOtherMethods<E extends Env>(app: Hono<E>): void {
  const needed = new Map<string, CallMethod>();
  for (const route of app.routes) {
    if (route.method in WRONG_METHOD && !needed.has(route.path)) needed.set(route.path, route.method as CallMethod);
  }
  for (const [path, method] of needed) {
    app.all(path, () => {
      throw wrongMethod(method);
    });
  }
}
