/**
 * Registers the Resources API (spec, "Resources API, generic paths").
 */
import type { Hono } from "hono";
import type { AppEnv } from "../http/request-context.ts";

/** Mounts every resource on `app`. */
export function registerResources(app: Hono<AppEnv>): void {
  void app;
}
