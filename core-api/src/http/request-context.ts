import type { AuthContext } from "../auth/context.ts";
import type { CoreConfig } from "../config.ts";
import type { CoreDb } from "../db/client.ts";
import type { ApiVersion } from "./api-version.ts";

/** What the core API needs from outside: one object, so tests pass their own (handbook). */
export interface AppDeps {
  db: CoreDb;
  config: CoreConfig;
  /** current time; tests pass a fixed clock */
  clock?: () => Date;
}

/** Per-request context handed to every handler. */
export interface RequestContext {
  deps: AppDeps;
  db: CoreDb;
  auth: AuthContext;
  version: ApiVersion;
  now: Date;
}

/** Hono environment of the core API. */
export interface AppEnv {
  Variables: { ctx: RequestContext };
}
