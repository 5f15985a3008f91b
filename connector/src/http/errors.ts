/**
 * The connector's one error class (handbook, "Style": failures are one error class turned into
 * a body in one place). The error middleware of app.ts renders it in Magento's REST shape
 * `{"message": "...", "parameters": {...}}` (handbook, "connector errors"); `%name` placeholders
 * in the message stay unreplaced, as Magento sends them, with their values in `parameters`.
 */

export type ErrorParameters = Record<string, string | number>;

/** An expected failure of a connector request: HTTP status + Magento message (+ response headers). */
export class ConnectorError extends Error {
  readonly status: number;
  readonly parameters?: ErrorParameters;
  /** headers the response carries, for example Retry-After */
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, parameters?: ErrorParameters, headers?: Record<string, string>) {
    super(message);
    this.name = "ConnectorError";
    this.status = status;
    this.parameters = parameters;
    this.headers = headers;
  }

  /** The Magento REST body of this error. */
  toBody(): { message: string; parameters?: ErrorParameters } {
    return this.parameters ? { message: this.message, parameters: this.parameters } : { message: this.message };
  }
}

/** 400 with a message (and parameters for its placeholders). */
export function badRequest(message: string, parameters?: ErrorParameters): ConnectorError {
  return new ConnectorError(400, message, parameters);
}

/** 400 for a missing required field, in Magento's wording. */
export function requiredField(fieldName: string): ConnectorError {
  return badRequest('"%fieldName" is required. Enter and try again.', { fieldName });
}

/** 404 of Magento's NoSuchEntityException::singleField. */
export function noSuchEntity(fieldName: string, fieldValue: string | number): ConnectorError {
  return new ConnectorError(404, "No such entity with %fieldName = %fieldValue", { fieldName, fieldValue });
}

/** 401 of Magento's webapi authorization, for a missing, unknown or revoked token. */
export function notAuthorized(resources: string): ConnectorError {
  return new ConnectorError(401, "The consumer isn't authorized to access %resources.", { resources });
}

/**
 * 429 for a client address that failed too often (customers/address-throttle.ts).
 * @param retryAfterMs time until the address may try again; sent as Retry-After in whole seconds
 */
export function tooManyAttempts(retryAfterMs: number): ConnectorError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ConnectorError(429, "Too many failed sign-in attempts from this address. Please wait and try again later.", undefined, {
    "Retry-After": String(seconds),
  });
}
