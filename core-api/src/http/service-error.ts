import { ERRORS, type ErrorName } from "@service/shared";

/**
 * The one error class of the core API: a spec error (catalogue name) raised anywhere and turned
 * into the error body in one place (`app.onError`).
 *
 * @example throw new ServiceError("parameter_missing", "name is required")
 */
export class ServiceError extends Error {
  readonly errorName: ErrorName;
  /** HTTP status; the catalogue's unless overridden (for example 413 for an oversized body). */
  readonly status: number;
  /** seconds to send as `Retry-After` (a refusal that lifts by itself, such as a limit's window) */
  readonly retryAfterSeconds: number | undefined;

  constructor(name: ErrorName, description?: string, options: { status?: number; retryAfterSeconds?: number } = {}) {
    super(description ?? ERRORS[name].description);
    this.name = "ServiceError";
    this.errorName = name;
    this.status = options.status ?? ERRORS[name].status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
