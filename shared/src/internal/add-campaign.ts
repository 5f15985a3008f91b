/**
 * Contract of `POST /internal/add-campaign` (spec, "Campaign"; the campaigns' minimal home so
 * that change logs arise): its params, its results and the campaign record shared by
 * add-campaign, alter-campaign and get-campaign, with the datetime parameter format.
 *
 * Datetime parameters (active_date_from, active_date_until) take RFC 3339 with an offset
 * (`2026-11-21T10:00:00Z`, `2026-11-21T11:00:00+01:00`) or `YYYY-MM-DD HH:MM:SS` read as UTC
 * (the two forms the API writes, handbook "datetimes"). Campaigns are stored to the second:
 * fractional seconds are dropped.
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { booleanValue, integerValue } from "./param-values.ts";

/** Most characters of a campaign title. */
export const CAMPAIGN_TITLE_MAX = 255;

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.\d{1,9})?([Zz]|[+-]\d\d:\d\d)$/;
const LEGACY = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/;
/** The DATETIME range of MySQL / MariaDB, in ms since the epoch. */
const EARLIEST = Date.UTC(1000, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * Parses a campaign datetime parameter (see the module comment for the two forms).
 * @param text the trimmed parameter text
 * @returns the instant, whole seconds (fractions dropped); null when the text is neither form, names
 *   an impossible date or time (2026-02-30, 24:00:00, a leap second) or lies outside years 1000-9999 UTC
 * @example parseCampaignDateTime("2026-11-21 10:00:00") // 2026-11-21T10:00:00.000Z
 */
export function parseCampaignDateTime(text: string): Date | null {
  const m = RFC3339.exec(text) ?? LEGACY.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const zone = m[7];
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== "Z") {
    const [h, mm] = zone.slice(1).split(":").map(Number) as [number, number];
    if (h > 23 || mm > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (h * 60 + mm);
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  return ms < EARLIEST || ms > LATEST ? null : new Date(ms);
}

/** A campaign datetime parameter; an empty text or null leaves the date unset (add) or clears it (alter). */
export const campaignDateTimeValue = z
  .string()
  .refine((s) => s.trim() === "" || parseCampaignDateTime(s.trim()) !== null, "must be RFC 3339 or YYYY-MM-DD HH:MM:SS")
  .nullable();

/** A campaign title: 1-255 characters once trimmed. */
export const campaignTitleValue = z
  .string()
  .refine((s) => s.trim() !== "", "is required")
  .refine((s) => [...s.trim()].length <= CAMPAIGN_TITLE_MAX, `at most ${CAMPAIGN_TITLE_MAX} characters`);

/** A datetime as formatted for the request's API version (RFC 3339 UTC from 1.6.8). */
const dateTime = z.string().regex(/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\dZ?$/, "must be a datetime");

/** The campaign record of the campaign calls; datetimes per `X-Service-API-version`. */
export const campaignRecordSchema = z.strictObject({
  id: z.int(),
  chain_id: z.int(),
  title: z.string(),
  is_active: z.boolean(),
  active_date_from: dateTime.nullable(),
  active_date_until: dateTime.nullable(),
  created_date: dateTime,
  last_modified_date: dateTime,
});
export type CampaignRecord = z.infer<typeof campaignRecordSchema>;

/**
 * Parameters of add-campaign (form, multipart or JSON; unknown parameters are ignored).
 * active_date_from must not lie after active_date_until when both are given.
 */
export const addCampaignParamsSchema = z
  .object({
    chain_id: integerValue,
    title: campaignTitleValue,
    /** default false */
    is_active: booleanValue.optional(),
    active_date_from: campaignDateTimeValue.optional(),
    active_date_until: campaignDateTimeValue.optional(),
  })
  .refine((p) => {
    const from = p.active_date_from ? parseCampaignDateTime(p.active_date_from.trim()) : null;
    const until = p.active_date_until ? parseCampaignDateTime(p.active_date_until.trim()) : null;
    return !from || !until || from.getTime() <= until.getTime();
  }, "active_date_from must not lie after active_date_until");
export type AddCampaignParams = z.input<typeof addCampaignParamsSchema>;

/** `results` of add-campaign. */
export const addCampaignResultsSchema = z.strictObject({
  campaign: campaignRecordSchema,
  result_type: z.literal("add-campaign"),
});
export type AddCampaignResults = z.infer<typeof addCampaignResultsSchema>;

/** The whole success body of add-campaign. */
export const addCampaignResponseSchema = successEnvelope(addCampaignResultsSchema);
