/**
 * The objects a voucher write refers to must exist where the voucher lives (spec, "Voucher":
 * references are objects with `id`). Checked before anything is written.
 *
 * Decisions: campaign must be a live (not deleted) campaign and user a user of the header chain,
 * redemption_exclusive_business a live business of that chain; currency any stored currency
 * (currencies are global). Baskets, tasks and return transactions are not stored by this service
 * yet, so no id can name one: a non-null basket, task or generating_return_transaction is refused
 * rather than stored unchecked.
 */
import { and, eq } from "drizzle-orm";
import { findBusinessById } from "../businesses/business-repository.ts";
import type { CoreDb } from "../db/client.ts";
import { campaigns, currencies, users } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";

/** References that cannot name anything yet (see above). */
const NOT_STORED = ["basket", "task", "generating_return_transaction"] as const;

/**
 * Checks every reference `values` carries (absent and null references are not checked).
 * @param values validated write values by API name; a reference is `{id}`
 * @param chainId the header chain the voucher belongs to
 * @throws ServiceError parameter_invalid (419) naming the first reference that does not exist,
 *   is deleted, or belongs to another chain
 */
export async function checkVoucherReferences(db: CoreDb, chainId: number, values: Record<string, unknown>): Promise<void> {
  const idOf = (prop: string): number | undefined => (values[prop] as { id: number } | null | undefined)?.id;
  const missing = (prop: string, id: number, where: string) =>
    new ServiceError("parameter_invalid", `${prop}: there is no ${where} with id ${id}.`);

  const campaign = idOf("campaign");
  if (campaign !== undefined) {
    const [row] = await db
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.id, campaign), eq(campaigns.chainId, chainId), eq(campaigns.deleted, false)))
      .limit(1);
    if (!row) throw missing("campaign", campaign, "campaign in this chain");
  }
  const user = idOf("user");
  if (user !== undefined) {
    const [row] = await db.select({ id: users.id }).from(users).where(and(eq(users.id, user), eq(users.chainId, chainId))).limit(1);
    if (!row) throw missing("user", user, "user in this chain");
  }
  const currency = idOf("currency");
  if (currency !== undefined) {
    const [row] = await db.select({ id: currencies.id }).from(currencies).where(eq(currencies.id, currency)).limit(1);
    if (!row) throw missing("currency", currency, "currency");
  }
  const business = idOf("redemption_exclusive_business");
  if (business !== undefined && !(await findBusinessById(db, chainId, business))) {
    throw missing("redemption_exclusive_business", business, "business in this chain");
  }
  for (const prop of NOT_STORED) {
    const id = idOf(prop);
    if (id !== undefined) throw new ServiceError("parameter_invalid", `${prop}: this service stores no ${prop.replaceAll("_", " ")} with id ${id}.`);
  }
}
