/**
 * Runs async work over a list with a fixed number of calls in flight, as a client that keeps a
 * few connections busy does.
 */

/**
 * Calls `work` for every item, at most `concurrency` at a time. Every item is attempted; a
 * failure is collected, not thrown, so one bad row does not stop an import.
 * @param onDone called after each item, with the error when it failed
 * @returns the failures with their items, in completion order
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
  onDone?: (item: T, error?: unknown) => void,
): Promise<Array<{ item: T; error: unknown }>> {
  const failures: Array<{ item: T; error: unknown }> = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      try {
        await work(item, index);
        onDone?.(item);
      } catch (error) {
        failures.push({ item, error });
        onDone?.(item, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  return failures;
}
