/**
 * What get-basket-price reads, in one statement (handbook, "Baskets": get-basket-price): the
 * chain's pricing settings, the member (id and member number: all the answer shows), and the
 * vouchers the basket considers (only the columns pricing reads). Without `basket_vouchers`
 * (every claimed voucher of the member: the usual call) the statement is compiled once per member
 * identifier and run as a prepared statement read by position (db/compiled-select.ts); with
 * `basket_vouchers` its key list varies, so it is built per request.
 */
import type { BasketVoucherEntry } from "@service/shared/internal/basket-params";
import { and, eq, inArray, sql, type Placeholder } from "drizzle-orm";
import { compileSelect, qb, type CompiledSelect } from "../db/compiled-select.ts";
import type { CoreDb } from "../db/client.ts";
import { chains, users, vouchers } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { PRICING_COLUMNS, PRICING_VOUCHER_COLUMNS, pricingVoucherOf, type MemberKey, type PricingVoucherRow } from "./basket-request.ts";
import type { ChainPricingColumns, ConsideredVoucher } from "./pricing.ts";

const DENIED = "permission_denied_or_non_existent";

/** The member as pricing answers it. */
export interface PricingMember {
  id: number;
  memberNumber: string | null;
}

type InputsRow = { chain: ChainPricingColumns; user: PricingMember | null; voucher: PricingVoucherRow | null };

const SELECTION = { chain: PRICING_COLUMNS, user: { id: users.id, memberNumber: users.memberNumber }, voucher: PRICING_VOUCHER_COLUMNS };

/** The claimed, live vouchers of the member joined. */
const claimedOfMember = (chainId: Placeholder) => and(eq(vouchers.chainId, chainId), eq(vouchers.userId, users.id), eq(vouchers.status, "claimed"), eq(vouchers.deleted, false));

/** One compiled statement per member identifier ("none": an anonymous basket), every claimed voucher considered. */
const CLAIMED = new Map<string, CompiledSelect<InputsRow, "chainId" | "member">>();

function claimedStatement(column: NonNullable<MemberKey>["column"] | "none") {
  let statement = CLAIMED.get(column);
  if (!statement) {
    const chainId = sql.placeholder("chainId");
    // An anonymous basket joins no member: the placeholder is still bound, so one run shape serves all.
    const member = column === "none" ? sql`${sql.placeholder("member")} IS NULL AND false` : and(eq(users.chainId, chainId), eq(users[column], sql.placeholder("member")));
    statement = compileSelect(
      qb.select(SELECTION).from(chains).leftJoin(users, member).leftJoin(vouchers, claimedOfMember(chainId)).where(eq(chains.id, chainId)),
      ["chainId", "member"],
    );
    CLAIMED.set(column, statement);
  }
  return statement;
}

/**
 * What get-basket-price reads, in one statement (see the module comment): the chain's pricing
 * settings, the member named by `member` (none: null), and the vouchers considered: the entries'
 * (in their order) when `entries` is given, else every claimed, live voucher of the member.
 * @throws ServiceError 68 for a chain gone, a member that is no user of the chain, or an entry's
 *   key that is no voucher of the member in the chain; 419 for a key named twice
 */
export async function pricingInputs(db: CoreDb, chainId: number, member: MemberKey, entries: BasketVoucherEntry[] | null): Promise<{ chain: ChainPricingColumns; user: PricingMember | null; considered: ConsideredVoucher[] }> {
  const keys = entries?.map((e) => e.key) ?? [];
  if (new Set(keys).size !== keys.length) throw new ServiceError("parameter_invalid", "A voucher key appears twice in basket_vouchers.");
  const rows: InputsRow[] = entries === null
    ? await claimedStatement(member?.column ?? "none").run(db, { chainId, member: member?.value ?? null })
    : await db.select(SELECTION).from(chains)
      .leftJoin(users, member === null ? sql`false` : and(eq(users.chainId, chainId), eq(users[member.column], member.value)))
      .leftJoin(vouchers, keys.length === 0 ? sql`false` : and(eq(vouchers.chainId, chainId), eq(vouchers.userId, users.id), inArray(vouchers.key, keys)))
      .where(eq(chains.id, chainId));
  if (rows.length === 0) throw new ServiceError(DENIED);
  const user = rows[0]!.user;
  if (member !== null && !user) throw new ServiceError(DENIED, "The member named is no user of the chain.");
  const found = rows.flatMap((r) => (r.voucher ? [r.voucher] : []));
  if (entries === null) return { chain: rows[0]!.chain, user, considered: found.map((row) => ({ voucher: pricingVoucherOf(row) })) };
  const byKey = new Map(found.map((r) => [r.key, r]));
  const considered = entries.map((entry) => {
    const row = byKey.get(entry.key);
    if (!row) throw new ServiceError(DENIED, `Voucher ${entry.key} is no voucher of this member.`);
    return { voucher: pricingVoucherOf(row), lockingCode: entry.locking_code ?? null };
  });
  return { chain: rows[0]!.chain, user, considered };
}
