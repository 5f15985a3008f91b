/**
 * JSON values kept in TEXT columns (content-page zones, a chain's allowed business formats).
 * A TEXT column holds at most 65535 bytes; a larger value is refused as a bad parameter before
 * any write instead of failing in the database. So is a value nested deeper than the request
 * limit: serialising recurses once per level, and must not exhaust the stack whatever reaches it.
 */
import { exceedsDepth, MAX_PARAM_DEPTH } from "../http/json-depth.ts";
import { ServiceError } from "../http/service-error.ts";

/** Bytes a MySQL / MariaDB TEXT column holds. */
export const TEXT_MAX_BYTES = 65_535;

/**
 * Serialises `value` for a TEXT column.
 * @param property the API property name, for the error description
 * @returns the JSON text, or null for null / undefined
 * @throws ServiceError parameter_invalid (419) when the value nests deeper than MAX_PARAM_DEPTH
 *   levels or its JSON text is over TEXT_MAX_BYTES bytes (UTF-8)
 */
export function toJsonText(value: unknown, property: string): string | null {
  if (value === null || value === undefined) return null;
  if (exceedsDepth(value, MAX_PARAM_DEPTH)) {
    throw new ServiceError("parameter_invalid", `${property} nests deeper than ${MAX_PARAM_DEPTH} levels.`);
  }
  const text = JSON.stringify(value);
  if (new TextEncoder().encode(text).length > TEXT_MAX_BYTES) {
    throw new ServiceError("parameter_invalid", `${property} is too large: at most ${TEXT_MAX_BYTES} bytes as JSON.`);
  }
  return text;
}

/** The value stored by toJsonText; null for a NULL column. */
export function fromJsonText(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}
