/**
 * The campaign record of the campaign calls (add-campaign, alter-campaign, get-campaign),
 * rendered from a stored row. Shape: `campaignRecordSchema` in `@service/shared/internal/add-campaign`.
 */
import type { CampaignRecord } from "@service/shared/internal/add-campaign";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import type { CampaignRow } from "./campaign-repository.ts";

/** The campaign record with datetimes per API version (RFC 3339 UTC from 1.6.8, `YYYY-MM-DD HH:MM:SS` before). */
export function renderCampaign(row: CampaignRow, version: ApiVersion): CampaignRecord {
  return {
    id: row.id,
    chain_id: row.chainId,
    title: row.title,
    is_active: row.isActive,
    active_date_from: formatDateTime(row.activeDateFrom, version),
    active_date_until: formatDateTime(row.activeDateUntil, version),
    created_date: formatDateTime(row.createdDate, version)!,
    last_modified_date: formatDateTime(row.lastModifiedDate, version)!,
  };
}
