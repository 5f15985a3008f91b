/**
 * The campaign group record of the group calls (add-campaign-group, get-campaign-groups,
 * delete-campaign-group), rendered from a stored group. Shape: `campaignGroupRecordSchema` in
 * `@service/shared/internal/add-campaign-group`.
 */
import type { CampaignGroupRecord } from "@service/shared/internal/add-campaign-group";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import type { GroupUpdater, StoredCampaignGroup } from "./campaign-group-repository.ts";

/** The group record with datetimes per API version (RFC 3339 UTC from 1.6.8, `YYYY-MM-DD HH:MM:SS` before). */
export function renderCampaignGroup(stored: StoredCampaignGroup, version: ApiVersion): CampaignGroupRecord {
  const { group } = stored;
  return {
    id: group.id,
    campaign_ids: [...stored.campaignIds],
    created_date: formatDateTime(group.createdDate, version)!,
    last_modified_date: formatDateTime(group.lastModifiedDate, version)!,
    last_updated_by: stored.updater ? [{ user_id: stored.updater.id, name: displayName(stored.updater) }] : [],
    name: group.name,
    active_date_from: formatDateTime(group.activeDateFrom, version),
    active_date_until: formatDateTime(group.activeDateUntil, version),
  };
}

/** An admin's first and last name, or the username when the admin has neither. */
function displayName(admin: GroupUpdater): string {
  const name = [admin.firstname, admin.lastname].filter((part) => part && part.trim() !== "").join(" ");
  return name || admin.username;
}
