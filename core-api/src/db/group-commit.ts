/**
 * Group commit in the application (issue 12: 32 concurrent add-business calls each paid a
 * transaction of their own, and queued on the shared count rows and the commit): writes that
 * arrive while a batch is being written wait and go together into the next batch, one
 * transaction for all of them. Every caller still gets its own answer: its promise settles only
 * after the transaction holding its write has committed (or failed), so a read after it sees the
 * write, as after a transaction of its own.
 *
 * When a batch of several fails with an error that may belong to one of its writes (a server
 * error: a duplicate key, a deadlock), nothing of it was written (one transaction), and each write
 * is retried alone, in arrival order, so each caller gets its own answer or error: the write that
 * caused the failure fails alone, the others succeed. An error of the connection (the database
 * unreachable, a timeout) is every caller's, as it would have been without batching.
 */

/** Options of a WriteBatcher. */
export interface WriteBatcherOptions {
  /** most writes in one batch (one transaction); more wait for the next */
  maxBatch: number;
  /** most batches written at once (each on a connection of its own) */
  maxInFlight: number;
  /**
   * Whether a batch's failure may be caused by one write of it, so that retrying the writes one by
   * one gives each its own answer (default: a server error, a driver error whose code starts with
   * `ER_`). False: every caller of the batch gets the error.
   */
  retryAlone?: (err: unknown) => boolean;
}

interface Waiting<I, O> {
  item: I;
  resolve(value: O): void;
  reject(err: unknown): void;
}

/** A server error (the database ran the statement and refused it), as mysql2 reports one, maybe wrapped (`cause`). */
export function isServerError(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && typeof e === "object" && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && e.code.startsWith("ER_")) return true;
  }
  return false;
}

/**
 * Collects concurrent writes into batches written by `write` (see the module comment).
 * @example
 *   const batcher = new WriteBatcher((rows: Row[]) => insertAll(db, rows), { maxBatch: 64, maxInFlight: 1 });
 *   const written = await batcher.add(row); // resolves after the batch holding `row` committed
 */
export class WriteBatcher<I, O> {
  private readonly queue: Array<Waiting<I, O>> = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly write: (items: I[]) => Promise<O[]>;
  private readonly options: Required<WriteBatcherOptions>;

  /**
   * @param write writes the items in one transaction (all or nothing) and answers one result per
   *   item, in order; it throws when nothing was written
   */
  constructor(write: (items: I[]) => Promise<O[]>, options: WriteBatcherOptions) {
    if (!(options.maxBatch >= 1 && options.maxInFlight >= 1)) throw new Error("WriteBatcher: maxBatch and maxInFlight must be at least 1");
    this.write = write;
    this.options = { retryAlone: isServerError, ...options };
  }

  /**
   * Writes `item` with the next batch.
   * @returns its result, once the batch's transaction has committed
   * @throws what `write` threw for it: alone, or for its whole batch when the error is not one to retry alone
   */
  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Starts a batch on the next turn of the event loop, so that writes arriving in this one join it. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.startBatches();
    });
  }

  private startBatches(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.runBatch(batch).finally(() => {
        this.inFlight--;
        this.startBatches();
      });
    }
  }

  private async runBatch(batch: Array<Waiting<I, O>>): Promise<void> {
    let results: O[];
    try {
      results = await this.write(batch.map((w) => w.item));
    } catch (err) {
      if (batch.length === 1 || !this.options.retryAlone(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) await this.runBatch([w]);
      return;
    }
    if (results.length !== batch.length) {
      const err = new Error(`WriteBatcher: ${results.length} results for ${batch.length} writes`);
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  }
}
