/**
 * The tag record of the tag calls (add-tag, get-tags, delete-tag), rendered from a stored tag.
 * Shape: `tagRecordSchema` in `@service/shared/internal/add-tag`.
 */
import type { TagRecord } from "@service/shared/internal/add-tag";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";
import type { StoredTag } from "./tag-repository.ts";

/** The tag record with datetimes per API version (RFC 3339 UTC from 1.6.8, `YYYY-MM-DD HH:MM:SS` before). */
export function renderTag({ tag, chain }: StoredTag, version: ApiVersion): TagRecord {
  return {
    active: tag.active,
    chain: { email_address: chain.emailAddress, id: chain.id, name: chain.name, phone_number: chain.phoneNumber },
    created_date: formatDateTime(tag.createdDate, version)!,
    deleted: tag.deleted,
    id: tag.id,
    last_modified_date: formatDateTime(tag.lastModifiedDate, version)!,
    model_class: tag.modelClass,
    value: tag.value,
  };
}
