/**
 * Stored service clients and access tokens as resource records (property name -> value), the
 * form the Resources engine renders (spec, "AccessToken", "ServiceClient"). Pure mapping.
 *
 * A token's secret is never part of a record built from a row: only the creation response adds
 * `token_secret`, so every other response leaves it out.
 */
import type { ResourceRecord } from "../resources/render.ts";
import type { AccessTokenRow } from "./access-tokens.ts";
import type { ServiceClientRow } from "./service-clients.ts";

/** An admin user id as a reference (`{id}`), or null. */
export function adminReference(id: number | null): ResourceRecord | null {
  return id === null ? null : { id };
}

/**
 * A service client record.
 * @param chain the chain record to nest under `chain` (see loadChainRecord)
 * @param tokens its access tokens, when the response level includes `access_tokens` (L3);
 *   absent leaves the property out
 */
export function clientRecord(row: ServiceClientRow, chain: ResourceRecord, tokens?: AccessTokenRow[]): ResourceRecord {
  const record: ResourceRecord = {
    chain,
    created_date: row.createdDate,
    deleted: row.deleted,
    deleted_by: adminReference(row.deletedBy),
    // Not nullable in the spec and not required: a client without a contact has no such property.
    email_contact: row.emailContact ?? undefined,
    enabled: row.enabled,
    id: row.id,
    is_identity_source: row.isIdentitySource,
    last_modified_date: row.lastModifiedDate,
    last_updated_by: adminReference(row.lastUpdatedBy),
    name: row.name,
  };
  if (tokens) {
    // The client nested in each of its tokens carries no tokens itself, so rendering ends.
    const self = { ...record };
    record.access_tokens = tokens.map((t) => tokenRecord(t, self));
  }
  return record;
}

/**
 * An access token record, without its secret.
 * @param client the record to nest under `service_client`: a clientRecord, or `{id}` when the
 *   response level renders it as a bare reference
 */
export function tokenRecord(row: AccessTokenRow, client: ResourceRecord): ResourceRecord {
  return {
    active: row.active,
    created_date: row.createdDate,
    deleted: row.deleted,
    id: row.id,
    last_modified_date: row.lastModifiedDate,
    last_updated_by: adminReference(row.lastUpdatedBy),
    scope: row.scope,
    service_client: client,
  };
}
