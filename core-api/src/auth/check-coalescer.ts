/**
 * Concurrent requests with the same credentials share one authentication query (an importer sending
 * 32 add-business calls at once on one session paid 32 identical checks, half of the database's
 * work per call and a round trip each).
 *
 * Per key (the credentials, the chain asked for and everything else the query reads: see
 * RequestAuth), at most one check is being answered at a time. A request whose key is idle runs
 * its check at once. A request arriving while a check of its key is being answered does not take
 * that answer: the query started before the request arrived, so it may predate a revocation the
 * request must see.
 * Instead it joins the next check of the key, which starts as soon as the one being answered is
 * in, so every answer a request gets comes from a query sent after it arrived: a revoked session,
 * a deactivated account, a permission taken away fail the next request, as without coalescing.
 * The joined check runs with the latest request time among its joiners (a session expiring
 * meanwhile is expired for all of them).
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

  /** Keys with a check being answered right now (for tests). */
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
    if (!state) {
      const fresh: KeyState<G> = { next: null };
      this.#keys.set(key, fresh);
      return this.#run(key, fresh, query, now);
    }
    const next = state.next;
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
    state.next = { now, query, promise, resolve, reject };
    return promise;
  }

  /** Runs one check of `key`; when it is answered, starts the next one or forgets the key. */
  #run(key: string, state: KeyState<G>, query: CheckQuery<G>, now: Date): Promise<G> {
    this.#started++;
    let answer: Promise<G>;
    try {
      answer = query(now);
    } catch (err) {
      answer = Promise.reject(err);
    }
    const settled = () => {
      const next = state.next;
      if (!next) {
        this.#keys.delete(key);
        return;
      }
      state.next = null;
      this.#run(key, state, next.query, next.now).then(next.resolve, next.reject);
    };
    answer.then(settled, settled);
    return answer;
  }
}
