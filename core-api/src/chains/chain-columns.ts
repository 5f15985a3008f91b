/**
 * Chain rows <-> Resources records (spec, "Chain (singular resource)"): the chain's storage
 * mapping, derived from the declaration by the rules of db/resource-columns.ts and checked when
 * this module loads. The exceptions read what the chain refers to with the row itself (its first
 * app, its currency, its authentication point), so a chain record is one query; its allowed IP ranges live in their own
 * table and are added by `chainRecord` when the response level shows them.
 */
import { chainResource } from "@service/shared/resources/chain";
import { sql } from "drizzle-orm";
import { authenticationPointJson, authenticationPointRecord } from "../authentication-points/authentication-point-record.ts";
import { addedByRecordBuilder, qualified, resourceColumns, type ResourceRecord, type RowOf } from "../db/resource-columns.ts";
import { chains } from "../db/schema.ts";
import { ipRangeRecord, type IpRangeRow } from "../ip-ranges/ip-range-columns.ts";

/**
 * What a chain row is read with: its first app (lowest id), its currency's code and name, and its
 * authentication point (a JSON object, authentication-points/authentication-point-record.ts).
 */
const REFERRED = {
  appId: sql<number | null>`(SELECT MIN(a.id) FROM apps a WHERE a.chain_id = ${qualified(chains.id)})`,
  currencyCode: sql<string | null>`(SELECT c.code FROM currencies c WHERE c.id = ${qualified(chains.currencyId)})`,
  currencyName: sql<string | null>`(SELECT c.name FROM currencies c WHERE c.id = ${qualified(chains.currencyId)})`,
  authenticationPoint: authenticationPointJson(qualified(chains.id)),
};

/** A chain row as `chainColumns.selection` reads it. */
export type ChainRow = RowOf<typeof chains, typeof REFERRED>;

/** The chain's storage mapping. */
export const chainColumns = resourceColumns(chainResource, chains, {
  select: REFERRED,
  exceptions: {
    allowed_ip_ranges: addedByRecordBuilder("the chain's live ranges, from their own table, read only when the level shows them"),
    app: { read: (row) => (row.appId === null ? null : { id: row.appId }), keys: ["appId"], note: "the chain's first app (lowest id)" },
    authentication_point: {
      read: (row) => authenticationPointRecord(row.authenticationPoint),
      keys: ["authenticationPoint"],
      note: "the chain's authentication point (authentication_points) with its identity-source client; the integration token is never read",
    },
    currency: {
      key: "currencyId",
      column: chains.currencyId,
      read: (row) => (row.currencyId === null ? null : { id: row.currencyId, code: row.currencyCode, name: row.currencyName }),
      keys: ["currencyId", "currencyCode", "currencyName"],
      write: (value) => ({ currencyId: (value as { id: number }).id }),
      note: "rendered {id, code, name} from the currencies table, written as {id}",
    },
  },
});

/** The chain's properties up to this level are in its head: what a resource nesting it at the default response level shows. */
export const HEAD_LEVEL = 1;
/**
 * The settings a sale reads (basket pricing, baskets/pricing.ts ChainPricingColumns, which
 * vouchers it issues, and whether an exchange takes its return's replacements at once): read with
 * the chain's head, so add-basket reads no chain row of its own.
 */
const SALE_SETTINGS = [
  "basketVoucherAlwaysRedeemFullValueInStore",
  "basketVoucherAlwaysRedeemFullValueOnline",
  "calculateBasketOnTotalValueInStore",
  "calculateBasketOnTotalValueOnline",
  "redeemBasketVoucherOnNegativeValueBasket",
  "allowsDoubleDiscounting",
  "excludeRewardsOnBasketCampaignDiscountedItems",
  "regenerateVouchersOnPartialRedemption",
  "expiredVouchersRegenerateOnReturn",
  "regeneratedRewardsRedeemImmediately",
] as const;
/** The settings access checks and writes read from the request's chain, besides its level-1 properties. */
const HEAD_SETTINGS = [
  "ipWhitelistSuperUserExemption",
  "restrictCampaignEnable",
  "dummyEmailDomain",
  "requireUniquePhoneNumber",
  "firstTransactionSetsHomeAndSignupStore",
  "verifyPhoneNumbers",
  ...SALE_SETTINGS,
] as const;
const HEAD_KEYS = ["id", "name", "deleted", "appId", ...HEAD_SETTINGS] as const;

/**
 * The chain as every authentication reads it (not the whole row and its currency, which were read
 * with every request): its properties up to HEAD_LEVEL and HEAD_SETTINGS. A nested chain at a
 * deeper level, or the chain resource itself, is read in full (chains/nested-record.ts).
 */
export type ChainHead = Pick<ChainRow, (typeof HEAD_KEYS)[number]>;

/** What a query selects for a ChainHead (checked against the declaration when this module loads). */
export const chainHeadSelection = chainColumns.headSelection(HEAD_LEVEL, HEAD_KEYS, HEAD_SETTINGS) as Pick<
  typeof chainColumns.selection,
  (typeof HEAD_KEYS)[number]
>;

/** The head's yes / no columns, in the order of their bits in a packed head (packedChainHeadSelection). */
const HEAD_FLAGS = ["deleted", "ipWhitelistSuperUserExemption", "restrictCampaignEnable", "requireUniquePhoneNumber", "firstTransactionSetsHomeAndSignupStore", "verifyPhoneNumbers", ...SALE_SETTINGS] as const;

/**
 * A ChainHead in five columns instead of twenty: its yes / no columns as the bits of one (bit i set
 * when HEAD_FLAGS[i] holds 1, as a boolean column reads; NULL when no chain was joined, like
 * every other column). For the authentication query, which reads a head with every request
 * (each column is a column definition more the server sends and the driver reads); chainHeadOf
 * turns it back into the head.
 */
export const packedChainHeadSelection = {
  id: chains.id,
  name: chains.name,
  appId: chainHeadSelection.appId,
  dummyEmailDomain: chains.dummyEmailDomain,
  flags: sql<number>`(${sql.join(HEAD_FLAGS.map((key, i) => sql`((${chains[key]} = 1) << ${sql.raw(String(i))})`), sql.raw(" | "))})`.mapWith(Number),
};

/** A head as packedChainHeadSelection reads it. */
export type PackedChainHead = Omit<ChainHead, (typeof HEAD_FLAGS)[number]> & { flags: number };

/** The ChainHead of a packed one (the same values chainHeadSelection reads). */
export function chainHeadOf(packed: PackedChainHead): ChainHead {
  const { flags, ...rest } = packed;
  const head = rest as ChainHead;
  HEAD_FLAGS.forEach((key, i) => ((head as Record<string, unknown>)[key] = (flags & (1 << i)) !== 0));
  return head;
}

// The packed head holds exactly the head's keys (checked when this module loads).
{
  const packed = [...Object.keys(packedChainHeadSelection).filter((k) => k !== "flags"), ...HEAD_FLAGS].sort();
  if (packed.join() !== [...HEAD_KEYS].sort().join()) throw new Error(`chain head: packed ${packed.join(", ")}; head ${HEAD_KEYS.join(", ")}`);
  for (const key of HEAD_FLAGS) if (chains[key].columnType !== "MySqlBoolean") throw new Error(`chain head: ${key} is no boolean column`);
}

/** A chain head as the record of a chain nested at HEAD_LEVEL or below. */
export function chainHeadRecord(head: ChainHead): ResourceRecord {
  return chainColumns.toRecord(head as ChainRow, HEAD_LEVEL);
}

/** Level from which `allowed_ip_ranges` is rendered: below it the ranges are not read. */
export const RANGES_LEVEL = chainResource.properties.get("allowed_ip_ranges")!.level;

/**
 * A stored chain as a resource record.
 * @param ranges its live ranges, when the level shows them (absent leaves the property out); each
 *   range, and the authentication point's service client, nests this very record as its chain,
 *   so the one rendering rule (level - 1) applies all the way down
 */
export function chainRecord(row: ChainRow, ranges?: readonly IpRangeRow[]): ResourceRecord {
  const record = chainColumns.toRecord(row);
  // The identity-source client of the authentication point belongs to this chain, as a range does.
  const client = (record.authentication_point as ResourceRecord | null | undefined)?.service_client as ResourceRecord | null | undefined;
  if (client) client.chain = record;
  if (ranges) record.allowed_ip_ranges = ranges.map((r) => ipRangeRecord(r, record));
  return record;
}
