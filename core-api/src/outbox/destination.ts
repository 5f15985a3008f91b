/**
 * What a destination kind of the outbox is (outbox/outbox-worker.ts): the part of a delivery that
 * differs by where it goes. The worker is the same for every kind: it claims a due row, asks the
 * row's kind to `prepare` the HTTP request, signs it, sends it with a timeout, and retries or
 * deletes the row by the answer. A kind says only where the row goes and with which body and
 * headers, and whether it can still go at all.
 */
import type { SecretBox } from "@service/shared/secret-box";
import type { CoreDb } from "../db/client.ts";
import type { outbox } from "../db/schema.ts";

/** A stored outbox row. */
export type OutboxRow = typeof outbox.$inferSelect;

/** A claimed row as a kind sees it: the payload opened and parsed. */
export interface DueDelivery {
  row: OutboxRow;
  /** the JSON payload given to enqueue */
  payload: unknown;
}

/** What a kind may use while preparing a request. */
export interface DestinationContext {
  db: CoreDb;
  secretBox: SecretBox;
  /** the worker's clock */
  now: Date;
  /** the host names' addresses (net/public-target.ts); the worker's resolver */
  resolveHost: (hostname: string) => Promise<string[]>;
  /** WEBHOOK_ALLOW_PRIVATE: targets on loopback and private addresses are allowed */
  allowPrivate: boolean;
}

/** The HTTP request of one attempt (always POST). */
export interface PreparedRequest {
  url: string;
  /** the exact body sent and signed */
  body: string;
  /** extra headers (for example Authorization); the worker adds content-type, Idempotency-Key, X-Service-Event and the signature */
  headers?: Record<string, string>;
  /** the key of X-Service-Signature; null sends no signature */
  signingSecret: string | null;
  /**
   * the connection must reach a public address: the worker sends it through its `publicFetch`,
   * which (on Node) checks the address the socket connects to, so DNS rebinding after the kind's
   * own check cannot redirect it
   */
  publicOnly?: boolean;
}

/**
 * The kind's verdict on a due row: send this request, or give up for good (the row becomes
 * `failed` with `reason`, without an attempt: its webhook was deleted, its target became a
 * private address). A kind throws for a failure worth retrying (a database hiccup).
 */
export type Preparation = { request: PreparedRequest } | { giveUp: string };

/** One destination kind of the registry (outbox/destination-kinds.ts). */
export interface DestinationKind {
  /** builds the request for `delivery` at `ctx.now` */
  prepare(delivery: DueDelivery, ctx: DestinationContext): Promise<Preparation>;
}

/** The registry: kind name (the row's `kind`) -> kind. */
export type DestinationKinds = Readonly<Record<string, DestinationKind>>;
