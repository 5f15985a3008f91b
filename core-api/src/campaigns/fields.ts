/**
 * The parameters of the campaign calls, read with their spec errors, and the active-period rule.
 * Pure: no database.
 *
 * - campaign_id (alter-campaign, get-campaign): missing or empty, 245 campaign_id_not_present;
 *   not an integer, 244 campaign_id_invalid;
 * - title: text of at most 255 characters, else 482 string_parameter_too_long; it cannot be
 *   emptied (419 parameter_invalid);
 * - is_active: a boolean (true/false, 1/0, yes/no, on/off), else 316 parameter_supplied_not_boolean,
 *   the catalogue's error for every boolean parameter of the internal calls;
 * - active_date_from, active_date_until: RFC 3339 or `YYYY-MM-DD HH:MM:SS` (UTC), else 419; an
 *   empty value means no date (null).
 */
import { CAMPAIGN_TITLE_MAX, parseCampaignDateTime } from "@service/shared/internal/add-campaign";
import { isGiven, readBoolean, readInteger, readString } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";

/** The writable fields of a campaign; an absent (undefined) field is left as it is. */
export interface CampaignFields {
  title?: string;
  isActive?: boolean;
  /** null: no start date */
  activeDateFrom?: Date | null;
  /** null: no end date */
  activeDateUntil?: Date | null;
}

/**
 * Reads the mandatory campaign_id.
 * @throws ServiceError campaign_id_not_present (245) when absent or empty; campaign_id_invalid (244) when not an integer
 */
export function readCampaignId(params: Params): number {
  if (!isGiven(params, "campaign_id")) throw new ServiceError("campaign_id_not_present");
  return readInteger(params, "campaign_id", "campaign_id_invalid")!;
}

/**
 * Reads the campaign fields present in `params`.
 * @returns only the fields given; datetimes to the whole second
 * @throws ServiceError string_parameter_too_long (482) for a title over 255 characters;
 *   parameter_invalid (419) for an empty title or a datetime in neither accepted form;
 *   parameter_supplied_not_boolean (316) for an is_active that is not a boolean
 */
export function readCampaignFields(params: Params): CampaignFields {
  const fields: CampaignFields = {};
  const title = readString(params, "title", { max: CAMPAIGN_TITLE_MAX });
  if (title === null) throw new ServiceError("parameter_invalid", "title cannot be empty.");
  if (title !== undefined) fields.title = title;
  const isActive = readBoolean(params, "is_active");
  if (isActive !== undefined) fields.isActive = isActive;
  const from = readDateTime(params, "active_date_from");
  if (from !== undefined) fields.activeDateFrom = from;
  const until = readDateTime(params, "active_date_until");
  if (until !== undefined) fields.activeDateUntil = until;
  return fields;
}

/**
 * Requires an active period that runs forwards; an open end (null) always passes.
 * @throws ServiceError parameter_invalid (419) when `from` lies after `until`
 */
export function requireForwardPeriod(from: Date | null, until: Date | null): void {
  if (from && until && from.getTime() > until.getTime()) {
    throw new ServiceError("parameter_invalid", "active_date_from must not lie after active_date_until.");
  }
}

/** A datetime parameter: undefined when absent, null when empty, else the instant. */
function readDateTime(params: Params, key: string): Date | null | undefined {
  const raw = params[key];
  if (raw === undefined) return undefined;
  if (raw === null) return null;
  if (typeof raw !== "string") throw new ServiceError("parameter_invalid", `${key} must be a datetime text.`);
  const text = raw.trim();
  if (text === "") return null;
  const date = parseCampaignDateTime(text);
  if (!date) {
    throw new ServiceError("parameter_invalid", `${key} must be RFC 3339 (2026-11-21T10:00:00Z) or YYYY-MM-DD HH:MM:SS (UTC).`);
  }
  return date;
}
