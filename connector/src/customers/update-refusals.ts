/**
 * How the update call (update-customer.ts) treats a failed attempt: the race a create may lose
 * and runs again, and the unique-index refusals that become 400 answers (spec, "Webshop connector
 * endpoints", update rules).
 */
import { badRequest, ConnectorError } from "../http/errors.ts";

/**
 * Attempts of one update call: a create that loses to a concurrent create runs again as an
 * update; the spare attempts cover the new customer vanishing in between. Deadlocks and the like
 * are the transaction runner's to retry (@service/shared/node).
 */
export const UPDATE_ATTEMPTS = 3;

/**
 * Whether a failed attempt only lost a race and is worth running again (its transaction was rolled
 * back): a duplicate key or a used email while creating (a concurrent request
 * created the customer, or linked the user_id / member_number, first; the next attempt finds and
 * updates it, and an email really used elsewhere is refused again). A duplicate key while updating
 * stands: it is an identifier or email that another customer really uses.
 */
export function lostRace(err: unknown, creating: boolean): boolean {
  const code = driverErrorCode(err);
  // The email check of a create sees a customer committed after the look-up found none.
  const emailRefused = err instanceof ConnectorError && err.message === EMAIL_IN_USE;
  return creating && (code === "ER_DUP_ENTRY" || emailRefused);
}

/** The mysql2 error code of `err` or of the driver error drizzle wrapped in it. */
function driverErrorCode(err: unknown): string | undefined {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/** Magento's message for an email another customer of the account scope has. */
export const EMAIL_IN_USE = "A customer with the same email address already exists in an associated website.";

/** The 400 of an email another customer of the account scope has. */
export function emailInUse(): ConnectorError {
  return badRequest(EMAIL_IN_USE);
}

/** A unique index that fires despite the checks (a concurrent write, a member number in use) is a 400. */
export function duplicateToBadRequest(err: unknown): unknown {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause ?? (err as { code?: string; message?: string });
  if (cause?.code !== "ER_DUP_ENTRY") return err;
  if (cause.message?.includes("service_customer_by_chain_member_number")) {
    return badRequest('The %fieldName is already linked to another customer.', { fieldName: "member_number" });
  }
  if (cause.message?.includes("service_customer_by_chain_user")) {
    return badRequest('The %fieldName is already linked to another customer.', { fieldName: "user_id" });
  }
  return emailInUse();
}
