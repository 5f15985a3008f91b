/**
 * Registers the internal calls (spec, "Internal call: ..."). Each call answers one method; any
 * other method gets code 13 with the name of the method it needs. A `.json` suffix on the path
 * is served the same (handbook: older clients append it).
 */
import type { ErrorName } from "@service/shared";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { addBusiness } from "./add-business.ts";
import { addCampaign } from "./add-campaign.ts";
import { alterBusiness } from "./alter-business.ts";
import { alterCampaign } from "./alter-campaign.ts";
import { getBusinesses } from "./get-businesses.ts";
import { getCampaign } from "./get-campaign.ts";

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Handler = (c: Context<AppEnv>) => Promise<Response>;

const WRONG_METHOD: Record<Method, ErrorName> = {
  GET: "http_request_method_non_GET_not_allowed",
  POST: "http_request_method_non_POST_not_allowed",
  PUT: "http_request_method_non_PUT_not_allowed",
  DELETE: "http_request_method_non_DELETE_not_allowed",
};

/** The internal calls: path under /internal (or /auth), method, handler (exported for the generated tests). */
export const CALLS: Array<[path: string, method: Method, handler: Handler]> = [
  ["/internal/add-business", "POST", addBusiness],
  ["/internal/alter-business", "PUT", alterBusiness],
  ["/internal/get-businesses", "GET", getBusinesses],
  ["/internal/add-campaign", "POST", addCampaign],
  ["/internal/alter-campaign", "PUT", alterCampaign],
  ["/internal/get-campaign", "GET", getCampaign],
];

/** Mounts every internal call on `app`. */
export function registerInternalCalls(app: Hono<AppEnv>): void {
  for (const [path, method, handler] of CALLS) {
    const route = (c: Context<AppEnv>) => {
      if (c.req.method !== method && !(method === "GET" && c.req.method === "HEAD")) {
        throw new ServiceError(WRONG_METHOD[method]);
      }
      return handler(c);
    };
    app.all(path, route);
    app.all(`${path}.json`, route);
  }
}
