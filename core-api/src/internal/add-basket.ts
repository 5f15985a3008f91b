/**
 * `POST /internal/add-basket` (handbook, "first transaction"): records a basket of a user at a
 * branch business; with the chain's first_transaction_sets_home_and_signup_store the user's first
 * basket fills an empty signup store and home store (baskets/basket-repository.ts). Contract:
 * `@service/shared/internal/add-basket`. Response `results`: `{basket, result_type: "add-basket"}`.
 *
 * Checks, in order (nothing is written unless all pass): credentials (6 / 266); chain_id, user_id
 * and basket_total_price present (3 / 441 / 441); chain_id an integer (76); write access to the
 * chain (admin or chain-scope token), else 68; the other parameters (419, 482); the branch
 * business (branch_business_id, else branch_business_owner_code) a live business of the chain
 * (419); the user a user of the chain, else 68 (as any object that does not exist).
 */
import { okBody } from "@service/shared";
import { addBasketCall, type AddBasketResults, type BasketItem } from "@service/shared/internal/add-basket";
import type { Context } from "hono";
import { requireAccess, requireSession } from "../auth/context.ts";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { recordBasket } from "../baskets/basket-repository.ts";
import { findBusinessById, findBusinessByOwnerCode } from "../businesses/business-repository.ts";
import { formatDateTime } from "../http/api-version.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../http/request-context.ts";
import { ServiceError } from "../http/service-error.ts";

/** Handles add-basket; see the module comment. */
export async function addBasket(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  requireParams(addBasketCall, params);
  const { chain_id: chainId } = readCallParams(addBasketCall, params, ["chain_id"]);
  const { chain } = await requireAccess(auth, CALL_ACCESS["add-basket"], chainId, "permission_denied_or_non_existent");
  const v = readCallParams(addBasketCall, params, ["user_id", "branch_business_id", "branch_business_owner_code", "basket_total_price", "items"]);

  let branchBusinessId: number | null = null;
  if (v.branch_business_id !== undefined) {
    if (!(await findBusinessById(db, chainId, v.branch_business_id))) throw new ServiceError("parameter_invalid", `branch_business_id ${v.branch_business_id} is no live business of the chain.`);
    branchBusinessId = v.branch_business_id;
  } else if (v.branch_business_owner_code) {
    const business = await findBusinessByOwnerCode(db, chainId, v.branch_business_owner_code);
    if (!business) throw new ServiceError("parameter_invalid", `branch_business_owner_code ${v.branch_business_owner_code} names no live business of the chain.`);
    branchBusinessId = business.id;
  }
  const items = (v.items ?? null) as BasketItem[] | null;
  const row = await recordBasket(
    db,
    { chainId, userId: v.user_id, branchBusinessId, basketTotalPrice: v.basket_total_price, items },
    chain.firstTransactionSetsHomeAndSignupStore,
    now,
  );
  if (!row) throw new ServiceError("permission_denied_or_non_existent", `user_id ${v.user_id} is no user of the chain.`);
  const results: AddBasketResults = {
    basket: {
      id: row.id,
      chain_id: row.chainId,
      user_id: row.userId,
      branch_business_id: row.branchBusinessId,
      basket_total_price: row.basketTotalPrice,
      items: row.items === null ? null : (JSON.parse(row.items) as BasketItem[]),
      created_date: formatDateTime(row.createdDate, version)!,
    },
    result_type: "add-basket",
  };
  return c.json(okBody(results));
}
