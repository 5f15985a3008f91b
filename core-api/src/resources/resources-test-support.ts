/**
 * Shared set-up of the Resources API tests: a core with a settable clock, request helpers and a
 * direct business seeder (the repository, so list tests do not depend on POST).
 */
import { startCore, type TestAdmin, type TestCore } from "../../../test/helpers/core.ts";
import { insertBusiness, type BusinessRow, type BusinessValues } from "../businesses/business-repository.ts";

export interface ResourcesWorld {
  core: TestCore;
  /** super-user admin of core.chainId */
  admin: TestAdmin;
  /** sets the clock every later request and seed uses */
  setNow(iso: string): void;
  now(): Date;
  /** request with the admin's headers plus `headers`; JSON body when `body` is an object */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  seed(values: Partial<BusinessValues> & { name: string }, chainId?: number): Promise<BusinessRow>;
}

/** Starts a core for a Resources test file; the clock starts at 2026-01-01T00:00:00Z (sessions last 24 h: stay within that day). */
export async function startResourcesWorld(): Promise<ResourcesWorld> {
  let now = new Date("2026-01-01T00:00:00Z");
  // Outbound targets written in these tests (jwt_jwks_url, ...) name example hosts: they resolve to a public address.
  const core = await startCore({ clock: () => now, resolveHost: async () => ["93.184.216.34"] });
  const admin = await core.admin({ super_user: true });
  return {
    core,
    admin,
    setNow: (iso) => {
      now = new Date(iso);
    },
    now: () => now,
    call: (method, path, body, headers = {}) =>
      core.json(path, {
        method,
        headers: { ...admin.headers, ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      }),
    seed: (values, chainId = core.chainId) => insertBusiness(core.db, { chainId, ...values }, now),
  };
}

/** Asserts an error body: code, name and HTTP status. */
export function errorOf(res: { status: number; body: any }): { status: number; code: number; name: string } {
  return { status: res.status, code: res.body?.error?.code, name: res.body?.error?.name };
}
