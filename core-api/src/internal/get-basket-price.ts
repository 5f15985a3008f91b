/**
 * `POST /internal/get-basket-price` (handbook, "Baskets": get-basket-price): prices a provisional
 * basket for a member (or anonymously) with their claimed vouchers; writes nothing, ever.
 * Contract: `@service/shared/internal/get-basket-price`. Response `results`: the basket pricing
 * (baskets/pricing-results.ts) with `result_type: "get-basket-price"`.
 *
 * Who: admins with write access name the chain (chain_id, else 3), chain-scope tokens too or
 * price in the chain the token was issued in; both name at most one member identifier (none: an anonymous basket, priced without vouchers); a shopper
 * prices their own basket (naming anyone else, or another chain, is 68).
 *
 * Checks, in order: credentials (6 / 266); the parameters' own errors (76, 419, 482, 441 for
 * basket_total_price); access (68); several identifiers, items with basket_items, more than 2
 * decimals, an unknown branch business (419); the member (68); a basket_vouchers key that is no
 * voucher of the member (68). A voucher's state never fails the call: it is listed in
 * vouchers_not_applied with its reason. An exchange's return replacements that the chain applies
 * at once (regenerated_rewards_redeem_immediately) are priced as add-basket will, key null.
 */
import { okBody } from "@service/shared";
import { getBasketPriceCall, type GetBasketPriceResults } from "@service/shared/internal/get-basket-price";
import type { Context } from "hono";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { requireAccess, requireSession, shopperOf } from "../auth/context.ts";
import { findMember, memberKeyOf, memberKeyValue, readBasket, type BasketValues, type MemberKey } from "../baskets/basket-request.ts";
import { pricingInputs } from "../baskets/pricing-inputs.ts";
import { priceBasket, pricingSettingsFor } from "../baskets/pricing.ts";
import { pricingResults } from "../baskets/pricing-results.ts";
import { matchReturns, previewImmediateReplacements } from "../baskets/returns.ts";
import { readCallParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";

const DENIED = "permission_denied_or_non_existent";

/** The chain a privileged token was issued in (what get-basket-price prices in without chain_id), else null. */
async function tokenChain(auth: AppEnv["Variables"]["ctx"]["auth"]): Promise<number | null> {
  if (auth.kind !== "privileged") return null;
  const me = await auth.identity();
  return me.kind === "privileged" ? me.chainId : null;
}

/** Handles get-basket-price; see the module comment. */
export async function getBasketPrice(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now } = c.var.ctx;
  requireSession(auth);
  const v = readCallParams(getBasketPriceCall, await allParams(c)) as BasketValues & { chain_id?: number };
  const row = CALL_ACCESS["get-basket-price"];
  let chainId: number;
  let member: MemberKey;
  const me = await shopperOf(auth);
  if (me) {
    if (v.chain_id !== undefined && v.chain_id !== me.chainId) throw new ServiceError(DENIED);
    chainId = me.chainId;
    await requireAccess(auth, row, chainId, DENIED);
    // A shopper may name themselves, nobody else.
    if (memberKeyOf(v) !== null && (await findMember(db, chainId, v))?.id !== me.userId) throw new ServiceError(DENIED);
    member = { column: "id", value: me.userId };
  } else {
    chainId = v.chain_id ?? (await tokenChain(auth)) ?? (() => {
      throw new ServiceError("http_vars_missing", "chain_id is required.");
    })();
    await requireAccess(auth, row, chainId, DENIED);
    member = memberKeyValue(v);
  }
  const basket = await readBasket(db, chainId, v);
  const { chain, user, considered } = await pricingInputs(db, chainId, member, basket.entries);
  const settings = pricingSettingsFor(chain, basket.platformType);
  const { warnings, matched } = await matchReturns(db, chainId, basket, false);
  const immediate = await previewImmediateReplacements(db, chainId, matched, user?.id ?? null, now);
  const priced = priceBasket({ totalPrice: basket.totalCents, lines: basket.pricingLines, branchBusinessId: basket.branchBusinessId, retailerBasketCode: basket.retailerBasketCode, now }, [...considered, ...immediate], settings);
  const results: GetBasketPriceResults = { ...pricingResults(user, basket, priced, warnings), result_type: "get-basket-price" };
  return c.json(okBody(results));
}
