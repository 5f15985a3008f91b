/**
 * Mandatory integer parameters of the internal calls: chain_id (add-business, get-businesses) and
 * business_id (alter-business) (spec, "Errors": 3 http_vars_missing, 15 / 76 for a non-integer).
 */
import type { ErrorName } from "@service/shared";
import { isGiven, readInteger } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

/**
 * Reads a mandatory integer parameter.
 * @param invalid the error for a value that is not an integer (chain_id_invalid 76, business_id_invalid 15)
 * @throws ServiceError http_vars_missing (3) when absent or empty; `invalid` when not an integer
 */
export function readRequiredInteger(params: Params, key: string, invalid: ErrorName): number {
  if (!isGiven(params, key)) throw new ServiceError("http_vars_missing", `${key} is required.`);
  return readInteger(params, key, invalid)!;
}
