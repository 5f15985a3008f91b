import type { Context } from "hono";
import type { AppEnv } from "../http/request-context.ts";
import { ServiceError } from "../http/service-error.ts";

export async function alterBusiness(_c: Context<AppEnv>): Promise<Response> {
  throw new ServiceError("parameter_invalid", "alter-business is being built");
}
