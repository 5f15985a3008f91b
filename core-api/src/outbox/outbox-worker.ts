/**
 * The outbox worker (handbook, "Events"; "Sync between the webshop and the platform"): the one
 * way the core API delivers anything to the outside. Producers write a row with `enqueue`
 * (outbox/enqueue.ts) in the transaction of the change that causes it; this worker sends it.
 *
 * Guarantees:
 * - at least once: a row is deleted only after its receiver answered 2xx; a timeout, a refused
 *   connection, a redirect or any other status is retried with exponential back-off and jitter
 *   (outbox/retry-delay.ts); after the last attempt, or once the delivery expired, the row stays
 *   as `failed` (Resource `event_delivery`, super users) and is never sent again unless retried;
 * - one sender at a time: rows are claimed with `SELECT ... FOR UPDATE SKIP LOCKED` and a lease
 *   (outbox/outbox-repository.ts), so any number of workers (processes, machines) share the
 *   table and never send one row at the same time; a worker that dies mid-send leaves its rows to
 *   be claimed again when the lease ends (`leaseMs`: twice the send timeout plus 2 s);
 * - in order per key: rows that share an ordering key (enqueue's `orderingKey`, for example one
 *   member's changes to the webshop) are sent one at a time, in the order they were enqueued; a
 *   row waits while an earlier one of its key is pending (being sent, or waiting for a retry) and
 *   goes once that one was delivered or failed for good (outbox-repository.ts `claimDue`). Rows of
 *   other keys, and rows without one (webhooks), go on in parallel meanwhile;
 * - receivers can de-duplicate: every attempt of a delivery carries the same `Idempotency-Key`
 *   (the row's delivery id), and is signed `X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of
 *   "<t>.<body>">` with the destination's signing secret (@service/shared/webhook-signature);
 * - a stop (`stop()`) claims nothing more, lets sends in flight finish within a grace period, then
 *   cuts the rest and gives their rows back (due at once, the cut attempt not counted).
 *
 * Extension point: destination kinds. A row's `kind` names an entry of the registry
 * (outbox/destination-kinds.ts, `DESTINATION_KINDS`), whose `prepare` turns the row into the
 * request to send (URL, body, extra headers, signing secret) or gives it up. To deliver somewhere
 * new (the webshop's `POST /rest/V1/service/customer/update` as kind `authentication_point`),
 * write a `DestinationKind` in its own module, add it to `DESTINATION_KINDS` under the name the
 * producers pass to `enqueue({ kind })`; the worker does not change.
 *
 * The database going away (a restart, a lost network: isDatabaseUnavailable) stops nothing: the
 * loop keeps polling, says so once (a warning without a stack, however long it lasts) and once
 * more when a claim succeeds again. Sends whose settling failed meanwhile are sent again when
 * their lease ends (at least once; the Idempotency-Key lets the receiver tell).
 *
 * One attempt's HTTP request is outbox/outbox-send.ts. Everything outside is injected
 * (`OutboxWorkerOptions`): database, secret box, fetch, clock, sleep, randomness, host resolver,
 * log; tests drive `tick()` directly.
 */
import { isDatabaseUnavailable } from "@service/shared/node";
import type { SecretBox } from "@service/shared/secret-box";
import type { Logger } from "@service/shared/logging";
import type { CoreDb } from "../db/client.ts";
import { driverFailure } from "../http/database-unavailable.ts";
import { DESTINATION_KINDS } from "./destination-kinds.ts";
import { resolvesNothing } from "../net/public-target.ts";
import type { DestinationContext, DestinationKinds, OutboxRow } from "./destination.ts";
import { PAYLOAD_PURPOSE } from "./enqueue.ts";
import { claimDue, markDelivered, markFailed, releaseClaims, scheduleRetry, type AttemptFailure } from "./outbox-repository.ts";
import { messageOf, sendAttempt, SendStopped } from "./outbox-send.ts";
import { leaseMsFor, OUTBOX_DEFAULTS } from "./outbox-settings.ts";
import { DEFAULT_RETRY_POLICY, retryDelayMs, type RetryPolicy } from "./retry-delay.ts";

export { OUTBOX_DEFAULTS };

/** Waits `ms`, or less when `signal` aborts (it then resolves, never rejects). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** What the worker needs; everything but `db` and `secretBox` has a default. */
export interface OutboxWorkerOptions {
  db: CoreDb;
  /** opens the sealed payloads and the destinations' secrets */
  secretBox: SecretBox;
  /** the destination registry (default DESTINATION_KINDS) */
  kinds?: DestinationKinds;
  fetch?: typeof fetch;
  /**
   * the fetch of requests a kind marks `publicOnly` (default `fetch`); the Node entry passes
   * net/public-fetch.node.ts, which checks the address at connect time
   */
  publicFetch?: typeof fetch;
  clock?: () => Date;
  sleep?: Sleep;
  /** a number in [0, 1) for the jitter (default Math.random) */
  random?: () => number;
  /** host name -> addresses, for the kinds' SSRF checks (default: resolves nothing, so only IP literals pass) */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate?: boolean;
  logger?: Logger;
  pollMs?: number;
  timeoutMs?: number;
  /** default leaseMsFor(timeoutMs) */
  leaseMs?: number;
  concurrency?: number;
  retry?: RetryPolicy;
}

const SILENT: Logger = { error() {}, warn() {}, info() {} };

/** The default sleep: a timer that an abort cuts short. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/** See the module comment. */
export class OutboxWorker {
  readonly #o: Required<Omit<OutboxWorkerOptions, "logger">> & { logger: Logger };
  readonly #inFlight = new Set<Promise<void>>();
  /** cut every send in flight (stop() after the grace period) */
  readonly #cut = new AbortController();
  #loop: Promise<void> | null = null;
  #stopping = false;
  /** ends the current idle wait early (wake(), a finished send, stop()) */
  #nudge: AbortController = new AbortController();
  /** the last claim failed because the database is unavailable (said once, until a claim succeeds) */
  #databaseAway = false;

  constructor(options: OutboxWorkerOptions) {
    const plainFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#o = {
      kinds: DESTINATION_KINDS,
      fetch: plainFetch,
      publicFetch: plainFetch,
      clock: () => new Date(),
      sleep: realSleep,
      random: Math.random,
      resolveHost: resolvesNothing,
      allowPrivate: false,
      pollMs: OUTBOX_DEFAULTS.pollMs,
      timeoutMs: OUTBOX_DEFAULTS.timeoutMs,
      leaseMs: leaseMsFor(options.timeoutMs ?? OUTBOX_DEFAULTS.timeoutMs),
      concurrency: OUTBOX_DEFAULTS.concurrency,
      retry: DEFAULT_RETRY_POLICY,
      ...stripUndefined(options),
      db: options.db,
      secretBox: options.secretBox,
      logger: options.logger ?? SILENT,
    };
  }

  /** Sends in flight now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * One round: claims the due rows that fit the free slots, sends them, and waits for those sends.
   * @returns how many rows were claimed
   * @throws the database's error when the claim fails (the loop logs it and tries again later)
   */
  async tick(): Promise<number> {
    const started = await this.#fill();
    await Promise.all(started);
    return started.length;
  }

  /** Starts the loop: rounds back to back while rows are due, one every `pollMs` (or wake()) when idle. */
  start(): void {
    if (this.#loop || this.#stopping) return;
    this.#loop = this.#run();
  }

  /** Ends an idle wait at once: a producer in this process just committed a delivery. */
  wake(): void {
    this.#nudge.abort();
  }

  /**
   * Stops: claims nothing more, lets sends in flight finish for up to `graceMs`, then cuts the
   * rest and gives their rows back (due at once for another worker, the attempt not counted).
   * @param graceMs default OUTBOX_DEFAULTS.stopGraceMs
   */
  async stop(graceMs: number = OUTBOX_DEFAULTS.stopGraceMs): Promise<void> {
    this.#stopping = true;
    this.#nudge.abort();
    await this.#loop;
    if (this.#inFlight.size > 0) {
      const grace = new AbortController();
      const all = Promise.allSettled([...this.#inFlight]).then(() => grace.abort());
      await this.#o.sleep(graceMs, grace.signal);
      this.#cut.abort();
      await all;
    }
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      // A fresh nudge before looking: a wake() from now on ends the idle wait below at once.
      this.#nudge = new AbortController();
      let started: Promise<void>[] = [];
      try {
        started = await this.#fill();
      } catch (err) {
        if (!isDatabaseUnavailable(err)) {
          this.#o.logger.warn({ err }, "outbox: claiming due deliveries failed; trying again later");
        } else if (!this.#databaseAway) {
          this.#databaseAway = true;
          this.#o.logger.warn(driverFailure(err), "outbox: the database is unavailable; deliveries wait until it answers again");
        }
      }
      if (this.#stopping) break;
      // Busy: go on at once while there is room; otherwise wait for a slot, a wake() or the poll.
      if (started.length > 0 && this.#inFlight.size < this.#o.concurrency) continue;
      await this.#o.sleep(this.#o.pollMs, this.#nudge.signal);
    }
  }

  /** Claims rows for the free slots and starts their sends. */
  async #fill(): Promise<Promise<void>[]> {
    const free = this.#o.concurrency - this.#inFlight.size;
    if (free <= 0 || this.#stopping) return [];
    const now = this.#o.clock();
    const rows = await claimDue(this.#o.db, { now, leaseEnd: new Date(now.getTime() + this.#o.leaseMs), limit: free, token: leaseToken() });
    if (this.#databaseAway) {
      this.#databaseAway = false;
      this.#o.logger.info({}, "outbox: the database answers again; delivering");
    }
    return rows.map((row) => {
      const p = this.#deliver(row).finally(() => {
        this.#inFlight.delete(p);
        this.#nudge.abort();
      });
      this.#inFlight.add(p);
      return p;
    });
  }

  /** One attempt of a claimed row, settled in the database whatever happens. */
  async #deliver(row: OutboxRow): Promise<void> {
    const { db, logger } = this.#o;
    try {
      const outcome = await this.#attempt(row);
      const now = this.#o.clock();
      if (outcome === "delivered") {
        await markDelivered(db, row);
      } else if (outcome.final || row.attempts >= this.#o.retry.maxAttempts) {
        logger.error({ deliveryId: row.deliveryId, kind: row.kind, eventType: row.eventType, attempts: row.attempts, error: outcome.error }, "outbox: delivery failed for good");
        await markFailed(db, row, outcome, now);
      } else {
        const delay = retryDelayMs(row.attempts, this.#o.retry, this.#o.random);
        logger.warn({ deliveryId: row.deliveryId, kind: row.kind, eventType: row.eventType, attempt: row.attempts, retryInMs: delay, error: outcome.error }, "outbox: delivery attempt failed");
        await scheduleRetry(db, row, outcome, new Date(now.getTime() + delay), now);
      }
    } catch (err) {
      if (err instanceof SendStopped) {
        await releaseClaims(db, [row], this.#o.clock()).catch((e: unknown) => logger.warn({ err: e }, "outbox: releasing a claim failed; its lease will end"));
        return;
      }
      // The database failed while settling: the lease ends and another round takes the row again.
      logger.warn({ ...(isDatabaseUnavailable(err) ? driverFailure(err) : { err }), deliveryId: row.deliveryId }, "outbox: settling a delivery failed; it is retried when its lease ends");
    }
  }

  /** Prepares and sends one attempt; "delivered" only for a 2xx answer. */
  async #attempt(row: OutboxRow): Promise<"delivered" | (AttemptFailure & { final?: boolean })> {
    const now = this.#o.clock();
    if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return { statusCode: null, error: "expired before it could be delivered", final: true };
    const kind = this.#o.kinds[row.kind];
    if (!kind) return { statusCode: null, error: `unknown destination kind ${row.kind}`, final: true };
    let payload: unknown;
    try {
      payload = JSON.parse(await this.#o.secretBox.open(row.payload, PAYLOAD_PURPOSE));
    } catch {
      return { statusCode: null, error: "the payload does not open (SERVICE_SECRET_KEY changed?)", final: true };
    }
    const ctx: DestinationContext = { db: this.#o.db, secretBox: this.#o.secretBox, now, resolveHost: this.#o.resolveHost, allowPrivate: this.#o.allowPrivate };
    let prepared;
    try {
      prepared = await kind.prepare({ row, payload }, ctx);
    } catch (err) {
      return { statusCode: null, error: `preparing the request failed: ${messageOf(err)}` };
    }
    if ("giveUp" in prepared) return { statusCode: null, error: prepared.giveUp, final: true };
    const { fetch, publicFetch, timeoutMs } = this.#o;
    return sendAttempt(row, prepared.request, now, { fetch, publicFetch, timeoutMs, cut: this.#cut.signal });
  }
}

function leaseToken(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
