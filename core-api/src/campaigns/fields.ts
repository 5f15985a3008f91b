/**
 * The parameters of the campaign calls, read with the calls' shared declarations
 * (`@service/shared/internal/{add,alter,get}-campaign`, read by http/coerce.ts), and the
 * active-period rule. Pure: no database.
 *
 * - campaign_id (alter-campaign, get-campaign): missing or empty, 245 campaign_id_not_present;
 *   not an integer, 244 campaign_id_invalid;
 * - title: text of at most 255 characters, else 482 string_parameter_too_long; it cannot be
 *   emptied, and must be text (419 parameter_invalid);
 * - is_active: a boolean (JSON, or the text rule's true/false, 1/0, yes/no, on/off), else 316
 *   parameter_supplied_not_boolean, the catalogue's error for every boolean parameter of the
 *   internal calls;
 * - active_date_from, active_date_until: RFC 3339 or `YYYY-MM-DD HH:MM:SS` (UTC), else 419; an
 *   empty value or null means no date (null). Stored to the whole second.
 */
import type { addCampaignCall } from "@service/shared/internal/add-campaign";
import { alterCampaignCall } from "@service/shared/internal/alter-campaign";
import type { getCampaignCall } from "@service/shared/internal/get-campaign";
import { parseDateTime } from "@service/shared/text-values";
import { readCallParams } from "../http/coerce.ts";
import type { Params } from "../http/params.ts";
import { ServiceError } from "../http/service-error.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";

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
 * Reads the mandatory campaign_id with the declaration of `call` (alter-campaign and get-campaign
 * declare it alike).
 * @throws ServiceError campaign_id_not_present (245) when absent or empty; campaign_id_invalid (244) when not an integer
 */
export function readCampaignId(params: Params, call: typeof alterCampaignCall | typeof getCampaignCall = alterCampaignCall): number {
  return readCallParams(call as typeof getCampaignCall, params, ["campaign_id"]).campaign_id;
}

/**
 * Reads the campaign fields present in `params` with the declaration of `call` (add-campaign's
 * title is required, checked by its handler before the access check, and its is_active defaults
 * to false; alter-campaign's fields are all optional).
 * @returns only the fields given (or defaulted); datetimes to the whole second
 * @throws ServiceError string_parameter_too_long (482) for a title over 255 characters;
 *   parameter_invalid (419) for an empty title, a title that is not text or a datetime in neither
 *   accepted form; parameter_supplied_not_boolean (316) for an is_active that is not a boolean
 */
export function readCampaignFields(params: Params, call: typeof addCampaignCall | typeof alterCampaignCall = alterCampaignCall): CampaignFields {
  const p = readCallParams(call as typeof alterCampaignCall, params, ["title", "is_active", "active_date_from", "active_date_until"], { present: false });
  const fields: CampaignFields = {};
  if (p.title !== undefined) fields.title = p.title;
  if (p.is_active !== undefined) fields.isActive = p.is_active;
  if (p.active_date_from !== undefined) fields.activeDateFrom = toSecond(p.active_date_from);
  if (p.active_date_until !== undefined) fields.activeDateUntil = toSecond(p.active_date_until);
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

/** A declared datetime text (already checked) as the instant it names, fractions of a second dropped. */
function toSecond(text: string | null): Date | null {
  if (text === null) return null;
  return wholeSeconds(parseDateTime(text)!);
}
