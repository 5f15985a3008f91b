/**
 * `PUT /internal/alter-chain` (handbook, "Baskets": alter-chain): PATCH on the Chain resource as
 * an internal call. Contract: `@service/shared/internal/alter-chain`. Response `results`:
 * `{chain, result_type: "alter-chain"}`, the chain as `GET /resources/chain` renders it at level 3.
 *
 * Checks, in order (nothing is written unless all pass): credentials (6 / 266); chain_id present
 * (3) and an integer (76); a super-user admin of the chain (the Chain resource's update rule;
 * tokens, shoppers and any other caller 68); the other parameters as the Chain resource's PATCH
 * body (resources/write.ts validateWrite: a property it does not write, an unknown one or a bad
 * value 419 (a bad boolean too, as on the resource), a text too long 482); then the resource's own rules (currency,
 * jwks URL, the referral window set whole, the allowed-IP self-lockout; resources/chain.ts).
 */
import { okBody } from "@service/shared";
import { alterChainCall, type AlterChainResults } from "@service/shared/internal/alter-chain";
import type { Context } from "hono";
import { requireSession } from "../auth/context.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { bodyParams, queryParams, type Params } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { chainAdapter } from "../resources/chain.ts";
import { render } from "../resources/engine.ts";
import { resolveScope, type ResourceScope } from "../resources/request-scope.ts";
import { validateWrite } from "../resources/write.ts";
import { requestHeader } from "../http/request-headers.ts";

const DENIED = "permission_denied_or_non_existent";

/** Handles alter-chain; see the module comment. */
export async function alterChain(c: Context<AppEnv>): Promise<Response> {
  const ctx = c.var.ctx;
  requireSession(ctx.auth);
  const { chain_id: given, ...body } = { ...queryParams(c), ...(await bodyParams(c)) };
  const params: Params = given === undefined ? {} : { chain_id: given };
  requireParams(alterChainCall, params);
  const { chain_id: chainId } = readCallParams(alterChainCall, params);
  let scope: ResourceScope;
  try {
    scope = await resolveScope(ctx, { resource: "chain", operation: "update", chainHeader: String(chainId), recursionLevel: 3 });
  } catch (err) {
    // The Resources API answers 544 for a caller the Chain's update rule refuses; the internal calls answer 68.
    if (err instanceof ServiceError && err.errorName === "resource_not_found") throw new ServiceError(DENIED);
    throw err;
  }
  const source = (requestHeader(c, "content-type") ?? "").toLowerCase().startsWith("application/json") ? "json" : "form";
  const values = validateWrite(chainAdapter.declaration, "patch", body, { source, targetId: chainId });
  const target = await chainAdapter.findOne!(scope, { property: "id", value: chainId });
  if (!target) throw new ServiceError(DENIED);
  const updated = await chainAdapter.update!(scope, target, values);
  if (!updated) throw new ServiceError(DENIED);
  const results: AlterChainResults = { chain: render(chainAdapter, scope, updated), result_type: "alter-chain" };
  return c.json(okBody(results));
}
