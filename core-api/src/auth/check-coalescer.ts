/**
 * Concurrent requests with the same credentials share one authentication query (an importer sending
 * 32 add-business calls at once on one session paid 32 identical checks, half of the database's
 * work per call and a round trip each).
 *
 * Per key (the credentials, the chain asked for and everything else the query reads: see
 * RequestAuth), at most one check is being answered at a time, and a check is sent only after
 * every request it answers arrived. A request joins the key's next check, which is sent once the
 * event loop has read what input is ready now (setImmediate): requests read in the same turn of
 * the loop share it, and with the key idle that is all the wait. A request arriving while a check
 * of its key is being answered does not take that answer: the query started before the request
 * arrived, so it may predate a revocation the request must see. It joins the next check, sent
 * once the one being answered is in, so every answer a request gets comes from a query sent after
 * it arrived: a revoked session, a deactivated account, a permission taken away fail the next
 * request, as without coalescing. The joined check runs with the latest request time among its
 * joiners (a session expiring meanwhile is expired for all of them), as its first joiner's query:
 * on the handle of the request that arrived first, whose deadline is the soonest, so no joiner
 * waits for the check past its own deadline (REQUEST_DEADLINE_MS bounds every request). A later
 * joiner may be answered 503 that much sooner than its own deadline, when the database is slow
 * enough to reach the first one's.
 *
 * Every joiner gets the same answer: the same grant object (treated as read-only everywhere) or
 * the same error. Nothing is kept once a key's last check is answered: this is no cache.
 */

/** The check of one request: runs the query at the given request time. */
export type CheckQuery<G> = (now: Date) => Promise<G>;

/** The next check of a key: who joined it, until it starts. */
interface NextCheck<G> {
  /** the latest request time of its joiners */
  now: Date;
  query: CheckQuery<G>;
  promise: Promise<G>;
  resolve(grant: G): void;
  reject(err: unknown): void;
}

/** A key with a check about to be sent or being answered (a key without one has no state). */
interface KeyState<G> {
  /** the check that starts once the one being answered is in; null while nobody waits */
  next: NextCheck<G> | null;
}

/** Coalesces the authentication checks of one app (see the module comment). */
export class CheckCoalescer<G = unknown> {
  readonly #keys = new Map<string, KeyState<G>>();
  #started = 0;

  /** Checks started since this coalescer was made (one per query sent): for tests. */
  get started(): number {
    return this.#started;
  }

  /** Keys with a check about to be sent or being answered (for tests). */
  get busyKeys(): number {
    return this.#keys.size;
  }

  /**
   * The answer of a check of `key` for a request that arrived at `now`.
   * @param key everything the query's answer depends on besides the time: two requests of one key
   *   must be answered alike by one query
   * @param query the check, as any request of the key may run it (a joined check runs the first
   *   joiner's)
   * @returns the grant of a query sent after the request arrived
   * @throws what that query threw (every joiner of it gets the same error)
   */
  check(key: string, now: Date, query: CheckQuery<G>): Promise<G> {
    const state = this.#keys.get(key);
    const next = state?.next;
    if (next) {
      if (now.getTime() > next.now.getTime()) next.now = now;
      return next.promise;
    }
    let resolve!: (grant: G) => void;
    let reject!: (err: unknown) => void;
    const promise = new Promise<G>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const joined: NextCheck<G> = { now, query, promise, resolve, reject };
    if (state) {
      state.next = joined; // sent once the check being answered is in
    } else {
      const fresh: KeyState<G> = { next: joined };
      this.#keys.set(key, fresh);
      this.#startSoon(key, fresh);
    }
    return promise;
  }

  /**
   * Starts the key's next check once the requests that are ready now have joined it: after the
   * event loop's current round of input (setImmediate), never before a joiner arrived.
   */
  #startSoon(key: string, state: KeyState<G>): void {
    setImmediate(() => this.#run(key, state));
  }

  /** Runs the key's next check; when it is answered, starts the one after it or forgets the key. */
  #run(key: string, state: KeyState<G>): void {
    const check = state.next!;
    state.next = null;
    this.#started++;
    let answer: Promise<G>;
    try {
      // Promise.resolve: whatever the query hands back, the key is settled and its joiners answered.
      answer = Promise.resolve(check.query(check.now));
    } catch (err) {
      answer = Promise.reject(err);
    }
    const settled = () => {
      if (state.next) this.#startSoon(key, state);
      else this.#keys.delete(key);
    };
    answer.then(settled, settled);
    answer.then(check.resolve, check.reject);
  }
}
