/**
 * The full pattern of the route a request took (mount path included), for the request log and
 * the metrics. Express exposes the route only as `req.route` (its path relative to the router)
 * and restores `req.baseUrl` to "" when an error leaves the router, before the response is sent;
 * so the pattern is noted at the moment the router assigns `req.route`. One watcher per request,
 * however many readers ask.
 */
import type { Request } from "express";

const WATCHED = Symbol("matchedRoute");
const MOUNT = Symbol("mountPattern");

type Watched = Request & { [WATCHED]?: { pattern: string | null }; [MOUNT]?: string };

/**
 * Names the pattern a router is mounted at when it has parameters (`/rest/:storeCode/V1/...`):
 * Express gives only the path it matched as `req.baseUrl`, which would put each value in the
 * route. Call it before the router takes the request.
 */
export function noteMountPattern(req: Request, pattern: string): void {
  (req as Watched)[MOUNT] = pattern;
}

/**
 * Starts watching `req` for its route (call it before the routers run).
 * @returns a reader of the pattern: null while no route took the request
 */
export function watchMatchedRoute(req: Request): () => string | null {
  const watched = req as Watched;
  let seen = watched[WATCHED];
  if (!seen) {
    const noted: { pattern: string | null } = { pattern: null };
    seen = watched[WATCHED] = noted;
    let value: unknown;
    Object.defineProperty(req, "route", {
      configurable: true,
      enumerable: true,
      get: () => value,
      set: (route: { path?: unknown } | undefined) => {
        value = route;
        if (route && typeof route.path === "string") noted.pattern = (watched[MOUNT] ?? req.baseUrl) + route.path;
      },
    });
  }
  const found = seen;
  return () => found.pattern;
}
