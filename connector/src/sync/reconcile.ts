/**
 * The reconcile: webshop changes to the platform (handbook, "Sync between the webshop and the
 * platform"). Run by the cron of the connector (sync-cron.ts) and by `npm run sync`
 * (scripts/sync.ts).
 *
 * For every linked chain (platform-link.ts), the customers of its websites are read in
 * keyset-paged batches (customer-pages.ts) and each one's user info hash (the user info object,
 * customers/mapping.ts, hashed as shared/src/user-info-hash.ts does, user-info-digest.ts) is
 * compared with its `last_hash`:
 * - equal: nothing to send (a change the platform made through `update` set last_hash to the
 *   hash of what the shop then held, so it never echoes back);
 * - different: a change made in the shop (a Magento account edit) is sent;
 * - no last_hash: never synced. A customer registered after the chain was linked (a Magento
 *   registration) is sent; one from before is sent only with `full` (the first bulk load).
 * Sending is add-user (update_if_exists, privileged, the webshop app's hostname; platform-client.ts),
 * at most `concurrency` calls at a time. Once the platform has accepted a customer its last_hash,
 * user_id and member_number are stored (sync-state.ts), so a run that crashes is resumed by the
 * next one without sending again what was acknowledged.
 *
 * Conflicts, the newer change wins (each side's updated_at): a customer linked to a member is
 * sent with add-user's `if_unmodified_since` = the member's last_modified_date recorded at the last
 * sync (without one: the shop's change), so the platform itself refuses, atomically, to overwrite
 * a member changed since, and answers with the member as it is (`precondition_failed`). If that
 * change is later than the shop's (the latest updated_at of the customer row, its address and its
 * subscription), the platform's version is written into the shop (as `update` does); otherwise
 * the shop's is sent again, conditional on the version just seen (and with its member number,
 * which always comes from the platform). One call per customer unless both sides changed.
 *
 * One run at a time across all connector instances: the `reconcile` lease (job-lease.ts), renewed
 * while the run works; a run that loses it stops.
 *
 * The shop's database going away mid-run (a restart, a lost network) stops the run with a
 * StoreUnavailableError (one line): what the platform acknowledged and was stored stays, a
 * transaction the restart rolled back is as if never made, and the next run sends whatever is not
 * stored. The lease is freed as soon as the database is back (releaseLeaseWhenBack), so that next
 * run need not wait for it to lapse; a run stopped (its signal) meanwhile stops waiting at once and
 * leaves the lease to lapse.
 */
import { updateCustomerRequestSchema, type UserInfoObject } from "@service/shared/connector";
import { isDatabaseUnavailable } from "@service/shared/node";
import type { SecretBox } from "@service/shared/secret-box";
import type { ConnectorDb } from "../db/client.ts";
import { lastShopChange, parsePlatformDateTime, userInfoObject } from "../customers/mapping.ts";
import { updateCustomerFromUserInfo } from "../customers/update-customer.ts";
import { ConnectorError } from "../http/errors.ts";
import type { Logger } from "../logger.ts";
import { countCustomers, loadCustomerPage, type ScannedCustomer } from "./customer-pages.ts";
import { releaseLeaseWhenBack, renewLease, takeLease, type LeaseHolder } from "./job-lease.ts";
import { addUserParamsOf } from "./member-params.ts";
import { PlatformCallError, platformClient, type PlatformClient } from "./platform-client.ts";
import { readPlatformLinks, type PlatformLink } from "./platform-link.ts";
import { MemberLinkedElsewhereError, recordSynced } from "./sync-state.ts";
import { userInfoDigest } from "./user-info-digest.ts";

/** The lease's job name. */
export const RECONCILE_JOB = "reconcile";
/** Customers per page. */
export const DEFAULT_BATCH_SIZE = 2000;
/** add-user calls in flight at most. */
export const DEFAULT_CONCURRENCY = 8;
/** How long the lease holds without renewal; renewed every third of it. */
export const DEFAULT_LEASE_MS = 60_000;
/** add-user calls for one customer whose member keeps changing under it before it is left to the next pass. */
const MAX_CONDITIONAL_ATTEMPTS = 3;
/** Failures kept in the report (the count is always complete). */
const MAX_LISTED = 1000;

/** Why a customer is (or would be) sent. */
export type SendReason = "changed" | "new" | "never_synced";

/** A customer the run sent or, with dryRun, would send. */
export interface SendItem {
  chainId: number;
  customerId: number;
  email: string;
  reason: SendReason;
}

/** What the run did per chain. */
export interface ChainReport {
  chainId: number;
  /** customers read */
  scanned: number;
  /** customers whose hash differed (or never synced and due) */
  due: number;
  /** accepted by the platform, last_hash stored */
  sent: number;
  /** the platform's newer version written into the shop instead */
  pulled: number;
  /** refused by the platform or not stored (see failures) */
  failed: number;
  /** why the chain stopped early (platform unavailable, token refused), else null */
  stopped: string | null;
}

/** The outcome of a run. */
export interface ReconcileReport {
  /**
   * `done`; `lease_held`: another run holds the lease (nothing was done); `aborted`: stopped by
   * the signal; `lease_lost`: the lease lapsed while the run paused and another took it
   */
  status: "done" | "lease_held" | "aborted" | "lease_lost";
  /** with `lease_held`: who holds it and until when */
  holder?: LeaseHolder;
  dryRun: boolean;
  chains: ChainReport[];
  /** with dryRun: the customers that would be sent (at most 1000 listed) */
  wouldSend: SendItem[];
  /** customers that failed (at most 1000 listed) */
  failures: Array<SendItem & { message: string }>;
}

/** Progress after each customer and page, for a progress bar. */
export interface ReconcileProgress {
  chainId: number;
  /** customers of the chain read so far / in all */
  scanned: number;
  total: number;
  sent: number;
  pulled: number;
  failed: number;
}

/** What a run needs. */
export interface ReconcileDeps {
  db: ConnectorDb;
  /** the secret box of SERVICE_SECRET_KEY (the chains' access tokens) */
  box: SecretBox;
  /** the current time (stored updated_at values); default the system clock */
  clock?: () => Date;
  /** the fetch for the core API calls (default global fetch) */
  fetch?: typeof fetch;
  logger?: Logger;
}

/** Options of a run. */
export interface ReconcileOptions {
  /** also send customers never synced that were created before the chain was linked */
  full?: boolean;
  /** list what would be sent; send and write nothing, take no lease */
  dryRun?: boolean;
  /** only these chains (default every linked chain) */
  chainIds?: number[];
  batchSize?: number;
  concurrency?: number;
  leaseMs?: number;
  /**
   * stops the run: calls in flight finish, nothing new starts, the lease is released (or, while
   * the database is unavailable, left to lapse: the run does not wait for the database)
   */
  signal?: AbortSignal;
  onProgress?: (progress: ReconcileProgress) => void;
  /** after the platform accepted a customer and its last_hash is stored */
  onSent?: (item: SendItem) => void;
}

/**
 * The shop's database became unavailable during a run (isDatabaseUnavailable: it restarted, is
 * unreachable or does not answer). The run stopped; customers the platform acknowledged before
 * are stored (their last_hash), and the next run goes on with the rest. `message` is one line
 * naming the driver's reason and how many customers were synced; `report` is the run's report up
 * to the failure.
 */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  readonly report: ReconcileReport;
  constructor(report: ReconcileReport, cause: unknown) {
    const sent = report.chains.reduce((n, c) => n + c.sent, 0);
    const pulled = report.chains.reduce((n, c) => n + c.pulled, 0);
    super(
      `the shop database became unavailable during the reconcile (${driverReason(cause)}): ` +
        `${sent} customer(s) sent and ${pulled} taken from the platform before it are kept; the next run goes on where this one stopped`,
      { cause },
    );
    this.report = report;
  }
}

/** The driver's own message under drizzle's wrapper (whose message names the whole statement), on one line. */
function driverReason(err: unknown): string {
  let e = err as { message?: unknown; code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e?.cause && typeof e.cause === "object" && depth < 5; depth++) e = e.cause as typeof e;
  const message = typeof e?.message === "string" && e.message ? e.message : String(err);
  const code = typeof e?.code === "string" && !message.includes(e.code) ? `${e.code}: ` : "";
  return `${code}${message}`.replace(/\s+/g, " ").trim();
}

/** A customer found due for sending. */
interface Due {
  bundle: ScannedCustomer;
  info: UserInfoObject;
  hash: string;
  reason: SendReason;
}

/**
 * Runs one reconcile pass (module comment).
 * @returns the report; never throws for a customer or a chain (they are reported), only when the
 *   database fails or a chain's stored token does not open (PlatformLinkError)
 * @throws StoreUnavailableError when the shop's database became unavailable (the lease is freed
 *   first once the database is back, or left to lapse); the database's other errors as they are
 */
export async function runReconcile(deps: ReconcileDeps, options: ReconcileOptions = {}): Promise<ReconcileReport> {
  const dryRun = options.dryRun === true;
  const report: ReconcileReport = { status: "done", dryRun, chains: [], wouldSend: [], failures: [] };
  try {
    return await runPass(deps, options, report);
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    const failure = new StoreUnavailableError(report, err);
    deps.logger?.warn({ err: failure.message }, "reconcile stopped");
    throw failure;
  }
}

/** runReconcile's pass, filling `report` as it goes (runReconcile reports it when the database fails). */
async function runPass(deps: ReconcileDeps, options: ReconcileOptions, report: ReconcileReport): Promise<ReconcileReport> {
  const clock = deps.clock ?? (() => new Date());
  const dryRun = report.dryRun;
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH_SIZE);
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const leaseMs = Math.max(100, options.leaseMs ?? DEFAULT_LEASE_MS);
  const links = await readPlatformLinks(deps.db, deps.box, options.chainIds);
  if (links.length === 0) return report;

  // The run stops when asked to, or when its lease is lost.
  const stop = new AbortController();
  const onAbort = () => stop.abort("aborted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort("aborted");

  let heartbeat: NodeJS.Timeout | undefined;
  let lease: Awaited<ReturnType<typeof takeLease>> | undefined;
  /** when the lease lapses unless renewed (this process's clock, a little after the database's) */
  let leaseEnd = 0;
  if (!dryRun) {
    const asked = Date.now();
    lease = await takeLease(deps.db, RECONCILE_JOB, leaseMs).catch((err: unknown) => {
      options.signal?.removeEventListener("abort", onAbort);
      throw err;
    });
    if (!lease.taken) {
      options.signal?.removeEventListener("abort", onAbort);
      report.status = "lease_held";
      report.holder = lease.holder;
      return report;
    }
    leaseEnd = asked + leaseMs;
    const held = lease.lease;
    heartbeat = setInterval(() => {
      const renewing = Date.now();
      renewLease(deps.db, held, leaseMs).then(
        (ok) => {
          if (ok) leaseEnd = renewing + leaseMs;
          else stop.abort("lease_lost");
        },
        (err: unknown) => deps.logger?.warn({ err: driverReason(err) }, "reconcile: the lease could not be renewed"),
      );
    }, Math.max(50, Math.floor(leaseMs / 3)));
    heartbeat.unref();
  }

  try {
    for (const link of links) {
      if (stop.signal.aborted) break;
      await reconcileChain(deps, clock, link, { ...options, dryRun, batchSize, concurrency }, stop.signal, report);
    }
  } finally {
    clearInterval(heartbeat);
    options.signal?.removeEventListener("abort", onAbort);
    // Also when the run stopped because the database went away: freed once it is back, unless the
    // lease lapses first.
    if (lease?.taken) {
      let told = false;
      // A stop (shutdown) ends the waiting for the database at once: the lease then lapses.
      const released = await releaseLeaseWhenBack(deps.db, lease.lease, leaseEnd, {
        signal: options.signal,
        onRetry: (err) => {
          if (!told) deps.logger?.warn({ err: driverReason(err) }, "reconcile: the lease cannot be freed yet; trying again while it holds");
          told = true;
        },
      }).catch((err: unknown) => {
        deps.logger?.warn({ err: driverReason(err) }, "reconcile: the lease could not be freed; it lapses by itself");
        return "failed";
      });
      if (released === "lapsed") deps.logger?.warn({}, "reconcile: the database stayed unavailable until the lease lapsed");
      if (released === "abandoned") deps.logger?.warn({}, "reconcile: stopped while the database was unavailable; the lease lapses by itself");
    }
  }
  if (stop.signal.aborted) report.status = stop.signal.reason === "lease_lost" ? "lease_lost" : "aborted";
  deps.logger?.info({
    status: report.status, dryRun,
    chains: report.chains.map((c) => ({ chain_id: c.chainId, scanned: c.scanned, due: c.due, sent: c.sent, pulled: c.pulled, failed: c.failed, stopped: c.stopped })),
  }, "reconcile finished");
  return report;
}

/** One chain's pass: pages of customers, the due ones sent `concurrency` at a time; its report is in `report.chains` from the start. */
async function reconcileChain(
  deps: ReconcileDeps,
  clock: () => Date,
  link: PlatformLink,
  options: ReconcileOptions & { dryRun: boolean; batchSize: number; concurrency: number },
  stopSignal: AbortSignal,
  report: ReconcileReport,
): Promise<void> {
  const chain: ChainReport = { chainId: link.chainId, scanned: 0, due: 0, sent: 0, pulled: 0, failed: 0, stopped: null };
  report.chains.push(chain);
  const total = await countCustomers(deps.db, link.websiteIds);
  const client = platformClient(link, { fetch: deps.fetch });
  const progress = () => options.onProgress?.({ chainId: link.chainId, scanned: chain.scanned, total, sent: chain.sent, pulled: chain.pulled, failed: chain.failed });
  progress();
  const halted = () => stopSignal.aborted || chain.stopped !== null;

  // The next page is read while this one is hashed and sent.
  const load = (afterId: number) => {
    const page = loadCustomerPage(deps.db, link.websiteIds, afterId, options.batchSize);
    page.catch(() => undefined); // awaited below, or dropped when the run halts
    return page;
  };
  let next = load(0);
  while (!halted()) {
    const page = await next;
    if (page.length === 0) break;
    const lastPage = page.length < options.batchSize;
    next = lastPage ? Promise.resolve([]) : load(page[page.length - 1]!.customer.entityId);
    const due: Due[] = [];
    for (const bundle of page) {
      const reason = dueReason(bundle, link, options.full === true);
      if (reason === null) continue;
      const info = userInfoObject(bundle);
      const hash = userInfoDigest(info);
      if (hash !== bundle.service?.lastHash) due.push({ bundle, info, hash, reason });
    }
    chain.scanned += page.length;
    chain.due += due.length;
    if (options.dryRun) {
      for (const d of due) if (report.wouldSend.length < MAX_LISTED) report.wouldSend.push(item(link, d));
    } else {
      await inPool(due, options.concurrency, halted, async (d) => {
        await sendOne(deps, clock, link, client, d, chain, report, options.onSent);
        progress();
      });
    }
    progress();
    if (lastPage) break;
  }
  await next.catch(() => undefined);
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

function item(link: PlatformLink, d: Due): SendItem {
  return { chainId: link.chainId, customerId: d.bundle.customer.entityId, email: d.info.username, reason: d.reason };
}

/** Sends one customer (or takes the platform's newer version), recording the outcome in `chain`. */
async function sendOne(
  deps: ReconcileDeps,
  clock: () => Date,
  link: PlatformLink,
  client: PlatformClient,
  d: Due,
  chain: ChainReport,
  report: ReconcileReport,
  onSent: ReconcileOptions["onSent"],
): Promise<void> {
  const service = d.bundle.service;
  try {
    let memberNumber = service?.memberNumber ?? null;
    // Linked: overwrite the member only if the platform has not changed it since we last saw it.
    let since = service?.userId ? (service.platformModifiedAt ?? lastShopChange(d.bundle)) : undefined;
    let answer = await client.addUser(addUserParamsOf(d.info, memberNumber), { ifUnmodifiedSince: since });
    for (let attempt = 1; answer.preconditionFailed; attempt++) {
      const member = answer.user;
      const platformAt = parsePlatformDateTime(member.last_modified_date);
      if (platformAt === null) throw new PlatformCallError(`POST /internal/add-user: the member's last_modified_date ${JSON.stringify(member.last_modified_date)} is no datetime`, "unavailable", 200);
      if (platformAt > lastShopChange(d.bundle)) {
        // The platform's change is the newer one: the shop takes it, as `update` would.
        await updateCustomerFromUserInfo({ db: deps.db, clock }, updateCustomerRequestSchema.parse({
          user_info: member, create_if_not_exists: false, service_chain_id: link.chainId,
        }));
        chain.pulled++;
        return;
      }
      if (attempt >= MAX_CONDITIONAL_ATTEMPTS) {
        throw new PlatformCallError(`POST /internal/add-user: the member changed again during each of ${attempt} attempts; left to the next pass`, "refused", 200, "precondition_failed");
      }
      // The platform changed the member since the last sync, but the shop's change is newer: send it
      // again, conditional on the version just seen.
      since = platformAt;
      memberNumber = member.member_number ?? memberNumber;
      answer = await client.addUser(addUserParamsOf(d.info, memberNumber), { ifUnmodifiedSince: since });
    }
    await recordSynced(deps.db, {
      customerId: d.bundle.customer.entityId,
      chainId: link.chainId,
      expectedLastHash: service?.lastHash ?? null,
      lastHash: d.hash,
      userId: answer.user.id,
      memberNumber: answer.user.member_number,
      platformModifiedAt: parsePlatformDateTime(answer.user.last_modified_date),
      now: clock(),
    });
    chain.sent++;
    onSent?.(item(link, d));
  } catch (err) {
    chain.failed++;
    const message = (err as Error).message;
    if (report.failures.length < MAX_LISTED) report.failures.push({ ...item(link, d), message });
    if (err instanceof PlatformCallError && err.kind !== "refused") {
      // Nothing more of this chain can go through now: the next pass tries again.
      chain.stopped ??= err.kind === "unauthorized"
        ? `the core API refuses the chain's access token or app hostname (${message}): link the chain again`
        : `the core API is unavailable (${message})`;
      deps.logger?.warn({ chain_id: link.chainId, customer_id: d.bundle.customer.entityId, error: message }, "reconcile: chain stopped");
    } else if (err instanceof PlatformCallError || err instanceof MemberLinkedElsewhereError || err instanceof ConnectorError) {
      // The platform refused this customer, or the shop could not take the platform's version
      // (e.g. its email is another customer's): the others go on, this one is tried again next pass.
      deps.logger?.warn({ chain_id: link.chainId, customer_id: d.bundle.customer.entityId, error: message }, "reconcile: customer not synced");
    } else {
      throw err;
    }
  }
}

/**
 * Runs `worker` over `items` with at most `limit` at a time, in order; stops starting new ones
 * once `halted()` says so or a worker threw (those in flight finish; then the first error is
 * thrown).
 */
async function inPool<T>(items: T[], limit: number, halted: () => boolean, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length && !halted() && !failure) {
      try {
        await worker(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  });
  await Promise.all(lanes);
  if (failure) throw failure.error;
}
