/**
 * Stored service clients and access tokens <-> Resources records (spec, "AccessToken",
 * "ServiceClient"): their storage mappings, derived from the declarations by the rules of
 * db/resource-columns.ts and checked when this module loads. Pure.
 *
 * A token's secret is never part of a record built from a row: only the creation response adds
 * `token_secret`, so every other response leaves it out.
 */
import { accessTokenResource } from "@service/shared/resources/access-token";
import { serviceClientResource } from "@service/shared/resources/service-client";
import { addedByRecordBuilder, resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { accessTokens, serviceClients } from "../db/schema.ts";

export type ServiceClientRow = typeof serviceClients.$inferSelect;
export type AccessTokenRow = typeof accessTokens.$inferSelect;

/** The service client's storage mapping. */
export const serviceClientColumns = resourceColumns(serviceClientResource, serviceClients, {
  exceptions: {
    access_tokens: addedByRecordBuilder("the client's live tokens, from their own table, read only when the level shows them"),
    email_contact: {
      read: (row) => row.emailContact ?? undefined,
      note: "not nullable in the spec and not required: a client without a contact has no such property",
    },
  },
});

/** The access token's storage mapping; a UUID has no useful order, so the natural order is creation time. */
export const accessTokenColumns = resourceColumns(accessTokenResource, accessTokens, {
  naturalOrder: "created_date",
  exceptions: {
    id: { filterValue: (value) => String(value).toLowerCase(), note: "stored lower case; any case names the token" },
    token_secret: addedByRecordBuilder("given once, in the creation response; only its SHA-256 is stored"),
  },
});

/**
 * A service client record.
 * @param chain the chain record to nest under `chain` (see chains/nested-record.ts)
 * @param tokens its access tokens, when the response level includes `access_tokens` (L3);
 *   absent leaves the property out. Each token nests this very record as its service_client,
 *   so the one rendering rule (level - 1) applies all the way down.
 */
export function clientRecord(row: ServiceClientRow, chain: ResourceRecord, tokens?: readonly AccessTokenRow[]): ResourceRecord {
  const record: ResourceRecord = { ...serviceClientColumns.toRecord(row), chain };
  if (tokens) record.access_tokens = tokens.map((t) => tokenRecord(t, record));
  return record;
}

/**
 * An access token record, without its secret.
 * @param client the record to nest under `service_client`: a clientRecord, or `{id}` when the
 *   response level renders it as a bare reference
 */
export function tokenRecord(row: AccessTokenRow, client: ResourceRecord): ResourceRecord {
  return { ...accessTokenColumns.toRecord(row), service_client: client };
}
