/**
 * One chain's reconcile pass (reconcile.ts runs one per linked chain): the customers of the
 * chain's websites in keyset-paged batches (customer-pages.ts), the next page read while this one
 * is hashed and sent; each customer's user info object (customers/mapping.ts) hashed
 * (userInfoHasher of @service/shared/node) and compared with its `last_hash`:
 * - equal: nothing to send (a change the platform made through `update` set last_hash to the
 *   hash of what the shop then held, so it never echoes back);
 * - different: a change made in the shop (a Magento account edit) is sent;
 * - no last_hash: never synced. A customer registered after the chain was linked (a Magento
 *   registration) is sent; one from before is sent only with `full` (the first bulk load).
 * The due customers go to the platform through conflict-policy.ts, at most `concurrency` at a time
 * (p-limit), one page's sends overlapping the next page's so the calls in flight do not drain at
 * every page end. The accepted ones synced before are stored in groups (record-groups.ts).
 *
 * What a failure ends:
 * - one customer: the platform refused it, answered it with something that is no valid answer,
 *   or the shop could not take the platform's version; it is reported and tried again next pass,
 *   the chain's other customers go on;
 * - the chain: the platform is unavailable or refuses the chain's token (its `stopped`); the
 *   other chains go on;
 * - the run: the database's errors, and anything unforeseen (a bug), thrown once the calls in
 *   flight have finished.
 */
import pLimit from "p-limit";
import { userInfoHasher } from "@service/shared/node";
import { userInfoObject } from "../customers/mapping.ts";
import { ConnectorError } from "../http/errors.ts";
import { loadCustomerPage, countCustomers, type ScannedCustomer } from "./customer-pages.ts";
import { negotiate, recordAccepted, type CustomerSyncContext, type DueCustomer, type Negotiated } from "./conflict-policy.ts";
import { PlatformCallError, platformClient } from "./platform-client.ts";
import { recordInGroups } from "./record-groups.ts";
import type { PlatformLink } from "./platform-link.ts";
import { MAX_LISTED, type ChainReport, type ReconcileDeps, type ReconcileOptions, type ReconcileReport, type SendItem, type SendReason } from "./reconcile-report.ts";
import { MemberLinkedElsewhereError } from "./sync-state.ts";

/** A due customer and why it is due. */
interface Due extends DueCustomer {
  reason: SendReason;
}

/** The settings of a pass, defaults applied. */
export type ChainPassOptions = ReconcileOptions & { dryRun: boolean; batchSize: number; concurrency: number };

/**
 * Reconciles one chain (module comment); its report is in `report.chains` from the start.
 * @param stop the run's stop signal: nothing new starts once it aborts
 * @throws the database's errors and unforeseen ones (after the calls in flight finished)
 */
export async function reconcileChain(
  deps: ReconcileDeps, link: PlatformLink, options: ChainPassOptions, stop: AbortSignal, report: ReconcileReport,
): Promise<void> {
  const chain: ChainReport = { chainId: link.chainId, scanned: 0, due: 0, sent: 0, pulled: 0, failed: 0, stopped: null };
  report.chains.push(chain);
  const total = await countCustomers(deps.db, link.websiteIds);
  const progress = () => options.onProgress?.({ chainId: link.chainId, scanned: chain.scanned, total, sent: chain.sent, pulled: chain.pulled, failed: chain.failed });
  progress();
  const records = recordInGroups(deps.db);
  const ctx: CustomerSyncContext = {
    db: deps.db, clock: deps.clock ?? (() => new Date()), chainId: link.chainId, client: platformClient(link, { fetch: deps.fetch }), record: records.record,
  };
  // The add-user calls hold a slot, the recording of an accepted customer does not: the calls in
  // flight stay at `concurrency` while the shop's database stores the answers before them.
  const limit = pLimit(options.concurrency);
  let fatal: { error: unknown } | undefined;
  const halted = () => stop.aborted || chain.stopped !== null || fatal !== undefined;
  const negotiateUnlessHalted = (d: Due) => (halted() ? null : negotiate(ctx, d));
  const sendOne = async (d: Due) => {
    try {
      await sendCustomer(deps, ctx, d, chain, report, options.onSent, () => limit(negotiateUnlessHalted, d));
    } catch (error) {
      fatal ??= { error };
    }
    progress();
  };
  // Each page's sends, settled: a page waits for the one before the last before queueing its own.
  const sending: Array<Promise<unknown>> = [];
  const hash = userInfoHasher();
  try {
    for await (const page of pages(deps, link, options.batchSize, halted)) {
      const due = dueCustomers(page, link, options.full === true, hash);
      chain.scanned += page.length;
      chain.due += due.length;
      if (options.dryRun) {
        for (const d of due) if (report.wouldSend.length < MAX_LISTED) report.wouldSend.push(sendItem(link.chainId, d));
      } else {
        if (sending.length >= 2) await sending[sending.length - 2];
        sending.push(Promise.all(due.map(sendOne)));
      }
      progress();
    }
  } catch (error) {
    fatal ??= { error }; // a page the database did not give: the sends under way finish first
  }
  await Promise.all(sending);
  if (fatal) throw fatal.error;
}

/** The chain's pages in entity_id order, the next one read while the caller works on this one; ends early once `halted()`. */
async function* pages(deps: ReconcileDeps, link: PlatformLink, batchSize: number, halted: () => boolean): AsyncGenerator<ScannedCustomer[]> {
  const load = (afterId: number) => {
    const page = loadCustomerPage(deps.db, link.websiteIds, afterId, batchSize);
    page.catch(() => undefined); // awaited below, or dropped when the pass halts
    return page;
  };
  let next = load(0);
  try {
    while (!halted()) {
      const page = await next;
      if (page.length === 0) return;
      const lastPage = page.length < batchSize;
      next = lastPage ? Promise.resolve([]) : load(page[page.length - 1]!.customer.entityId);
      yield page;
      if (lastPage) return;
    }
  } finally {
    await next.catch(() => undefined);
  }
}

/** The customers of `page` to send: those due (dueReason) whose hash differs from their last_hash. */
function dueCustomers(page: ScannedCustomer[], link: PlatformLink, full: boolean, hash: (info: object) => string): Due[] {
  const due: Due[] = [];
  for (const bundle of page) {
    const reason = dueReason(bundle, link, full);
    if (reason === null) continue;
    const info = userInfoObject(bundle);
    const h = hash(info);
    if (h !== bundle.service?.lastHash) due.push({ bundle, info, hash: h, reason });
  }
  return due;
}

/**
 * Whether a customer needs comparing at all: one synced before always (its hash against
 * last_hash); one never synced when registered since the chain was linked, or with `full`.
 */
function dueReason(bundle: ScannedCustomer, link: PlatformLink, full: boolean): SendReason | null {
  if (bundle.service?.lastHash) return "changed";
  if (bundle.customer.createdAt.getTime() >= Math.floor(link.linkedAt.getTime() / 1000) * 1000) return "new";
  return full ? "never_synced" : null;
}

function sendItem(chainId: number, d: Due): SendItem {
  return { chainId, customerId: d.bundle.customer.entityId, email: d.info.username, reason: d.reason };
}

/**
 * Syncs one customer and counts the outcome in `chain`; a failure of the customer or of the chain
 * is reported (module comment).
 * @param negotiated the platform's calls for it (conflict-policy.ts negotiate, in a slot of the
 *   pass's limit); null when the pass halted before its turn
 * @throws the database's errors and unforeseen ones
 */
async function sendCustomer(
  deps: ReconcileDeps, ctx: CustomerSyncContext, d: Due, chain: ChainReport, report: ReconcileReport,
  onSent: ReconcileOptions["onSent"], negotiated: () => Promise<Negotiated | null>,
): Promise<void> {
  try {
    const result = await negotiated();
    if (result === null) return;
    if (result.outcome === "pulled") {
      chain.pulled++;
      return;
    }
    await recordAccepted(ctx, d, result.user);
    chain.sent++;
    onSent?.(sendItem(ctx.chainId, d));
  } catch (err) {
    const scope = failureScope(err);
    if (scope === null) throw err;
    chain.failed++;
    const message = (err as Error).message;
    if (report.failures.length < MAX_LISTED) report.failures.push({ ...sendItem(ctx.chainId, d), message });
    const where = { chain_id: ctx.chainId, customer_id: d.bundle.customer.entityId, error: message };
    if (scope === "customer") {
      deps.logger?.warn(where, "reconcile: customer not synced");
      return;
    }
    // Nothing more of this chain can go through now: the next pass tries again.
    chain.stopped ??= (err as PlatformCallError).kind === "unauthorized"
      ? `the core API refuses the chain's access token or app hostname (${message}): link the chain again`
      : `the core API is unavailable (${message})`;
    deps.logger?.warn(where, "reconcile: chain stopped");
  }
}

/**
 * What a failed customer ends: `customer` (the platform refused it or answered it with no valid
 * answer; the shop could not take the platform's version, e.g. its email is another customer's),
 * `chain` (the platform is unavailable or refuses the chain's token), or null: not a failure of
 * the customer or the chain (the database's errors, a bug), which ends the run.
 */
export function failureScope(err: unknown): "customer" | "chain" | null {
  if (err instanceof PlatformCallError) return err.kind === "refused" || err.kind === "invalid_answer" ? "customer" : "chain";
  if (err instanceof MemberLinkedElsewhereError || err instanceof ConnectorError) return "customer";
  return null;
}
