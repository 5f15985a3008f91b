/**
 * `X-Service-API-version` (spec, "Versioning"): `major.minor.patch`; absent means the newest
 * version implemented (handbook).
 */
import { ServiceError } from "./service-error.ts";

export type ApiVersion = readonly [number, number, number];

/** The newest version this service implements. */
export const NEWEST_API_VERSION: ApiVersion = [1, 6, 8];

/**
 * Parses the header value.
 * @throws ServiceError parameter_invalid (419) when present but not `major.minor.patch`
 */
export function parseApiVersion(header: string | undefined | null): ApiVersion {
  if (header === undefined || header === null || header.trim() === "") return NEWEST_API_VERSION;
  const m = /^(\d{1,4})\.(\d{1,4})\.(\d{1,4})$/.exec(header.trim());
  if (!m) throw new ServiceError("parameter_invalid", "X-Service-API-version must be major.minor.patch.");
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** Whether `v` is at least `major.minor.patch`. */
export function versionAtLeast(v: ApiVersion, major: number, minor: number, patch: number): boolean {
  if (v[0] !== major) return v[0] > major;
  if (v[1] !== minor) return v[1] > minor;
  return v[2] >= patch;
}

/**
 * Formats a datetime for a response: RFC 3339 UTC (`2026-11-21T10:00:00Z`) from 1.6.8,
 * `YYYY-MM-DD HH:MM:SS` (UTC) before (handbook, "datetimes").
 */
export function formatDateTime(date: Date | null | undefined, version: ApiVersion): string | null {
  if (!date) return null;
  const time = date.getTime();
  const rfc3339 = versionAtLeast(version, 1, 6, 8);
  // The same instant as the last call (a row's creation and last change, a page of rows loaded
  // together) reads the same: formatted once.
  if (time === last.time && rfc3339 === last.rfc3339) return last.text;
  const iso = date.toISOString().slice(0, 19);
  const text = rfc3339 ? `${iso}Z` : iso.replace("T", " ");
  last = { time, rfc3339, text };
  return text;
}

/** The last datetime formatDateTime formatted (an invalid Date's NaN never matches). */
let last = { time: NaN, rfc3339: true, text: "" };
