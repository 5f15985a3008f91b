/** Test support: which spec error a synchronous call raises. */
import { ServiceError } from "./service-error.ts";

/**
 * The catalogue name of the ServiceError `fn` throws.
 * @returns the error name, or undefined when `fn` returns normally
 * @throws whatever `fn` throws that is not a ServiceError (a test must see it)
 */
export function thrownErrorName(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ServiceError) return err.errorName;
    throw err;
  }
  return undefined;
}
