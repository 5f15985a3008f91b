/**
 * What a reconcile run takes and tells (reconcile.ts): its dependencies and options, its report
 * per chain and its progress. The chain pass (chain-pass.ts) fills the report as it goes.
 */
import type { SecretBox } from "@service/shared/secret-box";
import type { ConnectorDb } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { LeaseHolder } from "./job-lease.ts";

/** Failures (and, with dryRun, customers that would be sent) kept in the report; the counts are always complete. */
export const MAX_LISTED = 1000;

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
  /** refused by the platform, answered with something that is no valid answer, or not stored (see failures) */
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
  /** with dryRun: the customers that would be sent (at most MAX_LISTED listed) */
  wouldSend: SendItem[];
  /** customers that failed (at most MAX_LISTED listed) */
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
  /** customers per page (default 2000) */
  batchSize?: number;
  /** add-user calls in flight at most (default 8) */
  concurrency?: number;
  /** how long the lease holds without renewal, milliseconds (default 60 s) */
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
