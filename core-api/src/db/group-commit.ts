/**
 * Group commit in the application (32 concurrent add-business calls each paid a transaction of
 * their own, and queued on the shared count rows and the commit): writes that arrive while a batch
 * is being written wait and go together into the next batch, one transaction for all of them. Every
 * caller still gets its own answer: its promise settles only after the transaction holding its
 * write has committed (or failed), so a read after it sees the write, as after a transaction of its
 * own.
 *
 * A failed batch wrote nothing (one transaction of the transaction runner, which has already
 * written the whole batch again while it met conflicts: a deadlock or lock wait timeout belongs to
 * no row, so 64 writers do not turn into 64 transactions because two batches crossed). When it
 * failed on an error of one of its rows (a duplicate key, a value the column refuses), each write
 * is retried alone, in arrival order, so each caller gets its own answer or error: the write that
 * caused the failure fails alone, the others succeed. Any other error (the database unreachable,
 * conflicts until the deadline, a statement it refuses whatever the values) is every caller's, as
 * it would have been without batching.
 *
 * A batch runs under the soonest deadline of the requests it holds (each write comes with its
 * request's, db/request-database.ts), so no caller waits past its own.
 */
import { errorChain } from "@service/shared/node";

/** Options of a WriteBatcher. */
export interface WriteBatcherOptions {
  /** most writes in one batch (one transaction); more wait for the next */
  maxBatch: number;
  /** most batches written at once (each on a connection of its own) */
  maxInFlight: number;
  /**
   * Whether a batch's failure may be caused by one write of it, so that retrying the writes one by
   * one gives each its own answer (default: isRowError, a duplicate key or a value a column
   * refuses). False: every caller of the batch gets the error.
   */
  retryAlone?: (err: unknown) => boolean;
}

interface Waiting<I, O> {
  item: I;
  /** the deadline of the request that added it (a `performance.now()` reading), if any */
  deadline: number | undefined;
  resolve(value: O): void;
  reject(err: unknown): void;
}

/** The driver's error code of `err` or of an error it wraps (`cause`, as drizzle wraps mysql2's), with its number. */
function driverError(err: unknown): { code: string; errno: unknown } | undefined {
  const e = errorChain(err).find((e) => typeof e.code === "string");
  return e ? { code: e.code as string, errno: e.errno } : undefined;
}

/** Server errors caused by the values of one row: a duplicate key, a value or reference its column refuses. */
const ROW_ERROR_CODES = new Set([
  "ER_DUP_ENTRY",
  "ER_DUP_ENTRY_WITH_KEY_NAME",
  "ER_BAD_NULL_ERROR",
  "ER_NO_DEFAULT_FOR_FIELD",
  "ER_WARN_NULL_TO_NOTNULL",
  "ER_DATA_TOO_LONG",
  "ER_WARN_DATA_OUT_OF_RANGE",
  "ER_DATA_OUT_OF_RANGE",
  "ER_TRUNCATED_WRONG_VALUE",
  "ER_TRUNCATED_WRONG_VALUE_FOR_FIELD",
  "ER_INVALID_JSON_TEXT",
  "ER_NO_REFERENCED_ROW_2",
  "ER_ROW_IS_REFERENCED_2",
  "ER_CHECK_CONSTRAINT_VIOLATED",
]);

/** MariaDB's ER_CONSTRAINT_FAILED (a CHECK constraint), which mysql2 names after MySQL's error of that number. */
const MARIADB_CONSTRAINT_FAILED = 4025;

/** An error one row of a batch may cause (ROW_ERROR_CODES), as mysql2 reports it, maybe wrapped. */
function isRowError(err: unknown): boolean {
  const e = driverError(err);
  return e !== undefined && (ROW_ERROR_CODES.has(e.code) || e.errno === MARIADB_CONSTRAINT_FAILED);
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
  private readonly write: (items: I[], deadline: number | undefined) => Promise<O[]>;
  private readonly options: Required<WriteBatcherOptions>;

  /**
   * @param write writes the items in one transaction of the transaction runner (all or nothing),
   *   within `deadline` (the soonest of the items', a `performance.now()` reading; undefined:
   *   none), and answers one result per item, in order; it throws when nothing was written
   */
  constructor(write: (items: I[], deadline: number | undefined) => Promise<O[]>, options: WriteBatcherOptions) {
    if (!(options.maxBatch >= 1 && options.maxInFlight >= 1)) throw new Error("WriteBatcher: maxBatch and maxInFlight must be at least 1");
    this.write = write;
    this.options = { retryAlone: isRowError, ...options };
  }

  /**
   * Writes `item` with the next batch.
   * @param deadline when the caller's database time ends (a `performance.now()` reading, its
   *   request's); undefined: none
   * @returns its result, once the batch's transaction has committed
   * @throws what `write` threw for it: alone, or for its whole batch when the error is not one to
   *   retry alone (conflicts until the deadline included)
   */
  add(item: I, deadline?: number): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, deadline, resolve, reject });
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
      results = await this.write(batch.map((w) => w.item), soonest(batch));
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

/** The soonest deadline of the writes of a batch; undefined when none of them has one. */
function soonest(batch: ReadonlyArray<{ deadline: number | undefined }>): number | undefined {
  let at: number | undefined;
  for (const w of batch) if (w.deadline !== undefined && (at === undefined || w.deadline < at)) at = w.deadline;
  return at;
}
