/**
 * `POST /internal/add-basket` (handbook, "Baskets": add-basket; "first transaction"): confirms a
 * sale: stores the member's basket priced as get-basket-price prices it and redeems exactly the
 * vouchers its basket_vouchers name, in one transaction, exactly once (baskets/sale.ts).
 * Contract: `@service/shared/internal/add-basket`. Response `results`:
 * `{basket, pricing, duplicate, result_type: "add-basket"}`.
 *
 * Checks, in order (nothing is written unless all pass): credentials (6 / 266); chain_id and
 * basket_total_price present (3 / 441); chain_id an integer (76); write access to the chain
 * (admin or chain-scope token), else 68; the other parameters (419, 482); no member identifier
 * (441) or several (419); the branch business a live business of the chain (419); then, in the
 * transaction, the member a user of the chain, else 68; a voucher key that is no voucher of the
 * member (68), a return line beyond its original quantity (419) and every named voucher (909-913,
 * 915, 916, 910). A reused retailer_basket_code answers the stored basket as a replay, or 914 for
 * other content, whichever of these errors its copy met (answerStored).
 */
import { okBody } from "@service/shared";
import { addBasketCall, type AddBasketResults, type BasketRecord } from "@service/shared/internal/add-basket";
import type { BasketPricing } from "@service/shared/internal/basket-params";
import type { Context } from "hono";
import { createHash } from "node:crypto";
import { requireAccess, requireSession } from "../auth/context.ts";
import { CALL_ACCESS } from "../auth/access-table.ts";
import { linesOf, memberKeyOf, memberKeyValue, readBasket, type BasketValues } from "../baskets/basket-request.ts";
import { pricingResults } from "../baskets/pricing-results.ts";
import type { BasketRow, Sale, SaleOutcome } from "../baskets/sale.ts";
import { confirmSaleGrouped } from "../baskets/sale-batch.ts";
import type { SaleMember } from "../baskets/sale-reads.ts";
import { baskets, vouchers } from "../db/schema.ts";
import type { CoreDb } from "../db/client.ts";
import { isDuplicateKey } from "../db/duplicate-key.ts";
import { formatCents, toCents } from "../baskets/money.ts";
import { formatDateTime } from "../http/api-version.ts";
import { readCallParams, requireParams } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../auth/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { and, asc, eq, isNull, ne, or } from "drizzle-orm";
import { alias } from "drizzle-orm/mysql-core";

/** Handles add-basket; see the module comment. */
export async function addBasket(c: Context<AppEnv>): Promise<Response> {
  const { db, auth, now, version } = c.var.ctx;
  requireSession(auth);
  const params = await allParams(c);
  requireParams(addBasketCall, params);
  const { chain_id: chainId } = readCallParams(addBasketCall, params, ["chain_id"]);
  const { chain } = await requireAccess(auth, CALL_ACCESS["add-basket"], chainId, "permission_denied_or_non_existent");
  const v = readCallParams(addBasketCall, params) as BasketValues & { chain_id: number };
  if (memberKeyOf(v) === null) throw new ServiceError("parameter_missing", "Name the member by one of user_id, member_number, username, authentication_point_identifier.");
  const basket = await readBasket(db, chainId, v);
  const lines = linesOf(v);
  const sale = {
    chainId, member: memberKeyValue(v)!, basket, now, chain,
    itemsJson: lines === null ? null : JSON.stringify(v.items ?? lines),
    requestHash: canonicalHash(v),
    firstTransactionSetsStores: chain.firstTransactionSetsHomeAndSignupStore,
    answer: (user: SaleMember, priced: Parameters<typeof pricingResults>[2], warnings: string[]) => pricingResults(user, basket, priced, warnings),
  };
  let outcome: SaleOutcome;
  try {
    outcome = await confirmSaleOnce(db, sale);
  } catch (err) {
    outcome = await answerStored(db, chainId, basket.retailerBasketCode, sale.requestHash, err);
  }
  const results: AddBasketResults = {
    basket: basketRecordOf(outcome.basket, version),
    pricing: outcome.basket.pricing === null ? null : (JSON.parse(outcome.basket.pricing) as BasketPricing),
    duplicate: outcome.duplicate,
    issued_vouchers: outcome.issuedVouchers ? await issuedVouchers(db, chainId, outcome.basket.id, version) : [],
    result_type: "add-basket",
  };
  return c.json(okBody(results));
}

/**
 * A sale that failed (`err`) while naming a retailer_basket_code: the basket stored under that
 * code answers it as a replay (same content) when there is one. A copy of a stored sale fails in
 * its transaction on its vouchers (redeemed by the original) or on the unique index, never before
 * it; another member's basket may also have taken the code meanwhile. On a Galera cluster a copy
 * committed on another node may also show up first as its redeemed voucher (910), its basket row
 * not in this transaction's snapshot yet: the read here, outside the transaction, finds it.
 * @returns the stored basket, `duplicate: true`
 * @throws ServiceError 914 basket_already_exists when the stored basket has other content, or
 *   the index refused the code and no basket holds it; otherwise `err` as it came (also when no
 *   code was named, or the error is neither a ServiceError nor that duplicate key)
 */
async function answerStored(db: CoreDb, chainId: number, code: string | null, requestHash: string, err: unknown): Promise<SaleOutcome> {
  const duplicate = isDuplicateKey(err, "baskets_by_retailer_code");
  if (code === null || !(duplicate || err instanceof ServiceError)) throw err;
  const [stored] = await db.select().from(baskets).where(and(eq(baskets.chainId, chainId), eq(baskets.retailerBasketCode, code)));
  if (!stored && !duplicate) throw err;
  if (!stored || stored.requestHash !== requestHash) throw new ServiceError("basket_already_exists", `retailer_basket_code ${code} is a basket with other content.`);
  return { basket: stored, duplicate: true, issuedVouchers: true };
}

/**
 * confirmSale (group-committed with concurrent sales, baskets/sale-batch.ts), run once more when a return row of another return committed between this one's
 * read of the line's returns and its insert (the duplicate line_return_number: possible on a
 * Galera cluster only, where the reads lock nothing on the other nodes): the second run reads
 * that return and answers 419 or passes.
 */
async function confirmSaleOnce(db: CoreDb, sale: Sale): Promise<SaleOutcome> {
  try {
    return await confirmSaleGrouped(db, sale);
  } catch (err) {
    if (!isDuplicateKey(err, "basket_returns_of_line")) throw err;
    return confirmSaleGrouped(db, sale);
  }
}

/**
 * The vouchers basket `basketId` put in the member's wallet: a return's replacements (not the part
 * it redeemed at once), and the rest of partly used vouchers.
 */
async function issuedVouchers(db: CoreDb, chainId: number, basketId: number, version: Parameters<typeof formatDateTime>[1]): Promise<AddBasketResults["issued_vouchers"]> {
  const parent = alias(vouchers, "parent");
  const rows = await db.select({ key: vouchers.key, amount: vouchers.amount, parentKey: parent.key, expiryDate: vouchers.expiryDate, ret: vouchers.generatingReturnTransactionId })
    .from(vouchers).innerJoin(parent, eq(parent.id, vouchers.parentVoucherId))
    .where(and(
      eq(vouchers.chainId, chainId),
      or(eq(vouchers.generatingReturnTransactionId, basketId), and(isNull(vouchers.generatingReturnTransactionId), eq(parent.basketId, basketId))),
      // A replacement this basket redeemed at once is in its pricing, not in the member's wallet.
      or(isNull(vouchers.basketId), ne(vouchers.basketId, basketId)),
    ))
    .orderBy(asc(vouchers.id));
  return rows.map((r) => ({
    key: r.key,
    amount: formatCents(toCents(r.amount ?? 0) ?? 0),
    parent_voucher_key: r.parentKey,
    reason: r.ret === null ? "partial_redemption" : "return",
    expiry_date: formatDateTime(r.expiryDate, version),
  }));
}

/** SHA-256 (hex) of the request's values as JSON with sorted keys: equal requests, equal hashes. */
export function canonicalHash(values: unknown): string {
  const sorted = (x: unknown): unknown =>
    Array.isArray(x) ? x.map(sorted)
      : x !== null && typeof x === "object" ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, sorted((x as Record<string, unknown>)[k])]))
      : x;
  return createHash("sha256").update(JSON.stringify(sorted(values))).digest("hex");
}

function basketRecordOf(row: BasketRow, version: Parameters<typeof formatDateTime>[1]): BasketRecord {
  return {
    id: row.id,
    chain_id: row.chainId,
    user_id: row.userId,
    branch_business_id: row.branchBusinessId,
    basket_total_price: row.basketTotalPrice,
    items: row.items === null ? null : (JSON.parse(row.items) as BasketRecord["items"]),
    retailer_basket_code: row.retailerBasketCode,
    basket_platform_type: row.basketPlatformType as BasketRecord["basket_platform_type"],
    basket_discount: formatCents(toCents(row.basketDiscount) ?? 0),
    created_date: formatDateTime(row.createdDate, version)!,
  };
}
