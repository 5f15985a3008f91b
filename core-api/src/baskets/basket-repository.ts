/**
 * Baskets of users (handbook, "first transaction": the minimal add-basket) and the first
 * transaction's stores (spec, "Internal call: add-user": "First-transaction stores"): when the
 * chain has first_transaction_sets_home_and_signup_store, the first basket of a user without
 * previous baskets fills the user's signup store and home store with the basket's branch
 * business, each only if empty; later baskets never change them; a basket without a branch
 * business changes nothing.
 *
 * One transaction holding the user's row lock, so two first baskets of one user racing each other
 * see each other: only the first counts as the first.
 */
import type { BasketItem } from "@service/shared/internal/add-basket";
import { and, eq, sql } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { baskets, users } from "../db/schema.ts";
import { runTransaction } from "@service/shared/node";

export type BasketRow = typeof baskets.$inferSelect;

/** A basket to record. */
export interface NewBasket {
  chainId: number;
  userId: number;
  branchBusinessId: number | null;
  basketTotalPrice: number;
  items: BasketItem[] | null;
}

/**
 * Records a basket, applying the first-transaction rule.
 * @param firstTransactionSetsStores the chain's first_transaction_sets_home_and_signup_store
 * @returns the stored basket, or null when the chain has no user `userId` (nothing is written)
 */
export async function recordBasket(db: CoreDb, basket: NewBasket, firstTransactionSetsStores: boolean, now: Date): Promise<BasketRow | null> {
  return runTransaction(db, async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users)
      .where(and(eq(users.id, basket.userId), eq(users.chainId, basket.chainId))).for("update");
    if (!user) return null;
    const [earlier] = await tx.select({ id: baskets.id }).from(baskets)
      .where(and(eq(baskets.chainId, basket.chainId), eq(baskets.userId, basket.userId))).limit(1);
    const [res] = await tx.insert(baskets).values({
      ...basket,
      items: basket.items === null ? null : JSON.stringify(basket.items),
      createdDate: now,
    });
    if (firstTransactionSetsStores && !earlier && basket.branchBusinessId !== null) {
      const store = basket.branchBusinessId;
      await tx.update(users)
        .set({ signupStoreId: sql`COALESCE(${users.signupStoreId}, ${store})`, homeStoreId: sql`COALESCE(${users.homeStoreId}, ${store})`, lastModifiedDate: now })
        .where(eq(users.id, basket.userId));
    }
    const [row] = await tx.select().from(baskets).where(eq(baskets.id, Number(res.insertId)));
    return row!;
  });
}
