/**
 * The diff of a campaign change (spec, "Change log entry": `{field: {from, to}}` in the field's
 * native type, kept as recorded). Pure: no database.
 *
 * A campaign is compared through its snapshot: the tracked fields with their values as they go
 * into the log once and for all: title (string), is_active (boolean), active_date_from /
 * active_date_until (RFC 3339 UTC text or null) and last_updated_date (RFC 3339 UTC text, the
 * spec's name for the campaign's last_modified_date in diffs). The datetime form is fixed here
 * and never depends on the request's API version, so old entries read the same forever.
 */
import type { ChangeDiff } from "@service/shared/resources/change-log";

/** The tracked fields of a campaign as a change log records them. */
export interface CampaignSnapshot {
  title: string;
  is_active: boolean;
  active_date_from: string | null;
  active_date_until: string | null;
  last_updated_date: string;
}

/** The stored columns a snapshot is taken from (a campaigns row has them all). */
export interface CampaignState {
  title: string;
  isActive: boolean;
  activeDateFrom: Date | null;
  activeDateUntil: Date | null;
  lastModifiedDate: Date;
}

/** Fields compared, in the order a diff lists them; last_updated_date follows any other change. */
const COMPARED = ["title", "is_active", "active_date_from", "active_date_until"] as const;

/**
 * The form in which a change log stores a datetime: RFC 3339 UTC to the second
 * (`2026-11-21T10:00:00Z`), whatever version the request asked for.
 */
export function recordedDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** The snapshot of a stored campaign. */
export function campaignSnapshot(state: CampaignState): CampaignSnapshot {
  return {
    title: state.title,
    is_active: state.isActive,
    active_date_from: state.activeDateFrom ? recordedDateTime(state.activeDateFrom) : null,
    active_date_until: state.activeDateUntil ? recordedDateTime(state.activeDateUntil) : null,
    last_updated_date: recordedDateTime(state.lastModifiedDate),
  };
}

/**
 * The diff from `before` to `after`.
 * @param before the campaign before the change; null for a creation, whose diff lists every
 *   field that starts with a value (`from: null`); a field starting as null did not change
 * @returns `{field: {from, to}}` of the fields whose values differ, plus last_updated_date
 *   whenever any of them does (even when the new time reads the same to the second, so an entry
 *   always says when it happened); `{}` when nothing changed (then no entry is recorded)
 * @example diffCampaign({...a, title: "A"}, {...a, title: "B"})
 *   // {title: {from: "A", to: "B"}, last_updated_date: {from: ..., to: ...}}
 */
export function diffCampaign(before: CampaignSnapshot | null, after: CampaignSnapshot): ChangeDiff {
  const diff: ChangeDiff = {};
  for (const key of COMPARED) {
    const from = before ? before[key] : null;
    if (from !== after[key]) diff[key] = { from, to: after[key] };
  }
  if (Object.keys(diff).length > 0) {
    diff.last_updated_date = { from: before ? before.last_updated_date : null, to: after.last_updated_date };
  }
  return diff;
}

/**
 * The diff of a deletion (delete-campaign): is_active to false when it was active, `deleted` from
 * false to true (a field no other change touches, so creation entries do not list it), then
 * last_updated_date.
 * @param before the live campaign; `after` the same campaign inactive, deleted and re-dated
 */
export function diffCampaignDeletion(before: CampaignSnapshot, after: CampaignSnapshot): ChangeDiff {
  const { last_updated_date: _dated, ...changed } = diffCampaign(before, after);
  return { ...changed, deleted: { from: false, to: true }, last_updated_date: { from: before.last_updated_date, to: after.last_updated_date } };
}
