/**
 * The chain's authentication point as its chain row reads it (chains/chain-columns.ts) and as the
 * Chain resource nests it (`authentication_point`, `@service/shared/resources/authentication-point`):
 * one correlated subquery that builds a JSON object, so a chain record stays one query whether it
 * is asked for itself, nested, or read with a request's credentials. The integration token is not
 * read here: it is never rendered.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { ResourceRecord } from "../db/resource-columns.ts";

/**
 * SQL of the authentication point of the chain whose id is `chainId` (a qualified column of the
 * outer query): a JSON object with `id`, `type`, `base_url` and `service_client` (the chain's
 * active identity-source client with its properties up to level 2 but its chain, which is the
 * outer chain, and its access tokens, which a chain renders no deeper than level 2; datetimes as
 * RFC 3339 UTC text), NULL without one.
 */
export function authenticationPointJson(chainId: SQL): SQL<unknown> {
  return sql`(SELECT JSON_OBJECT(
      'id', ap.id, 'type', ap.kind, 'base_url', ap.base_url,
      'service_client', (SELECT JSON_OBJECT('id', sc.id, 'name', sc.name, 'email_contact', sc.email_contact,
          'enabled', sc.enabled, 'deleted', sc.deleted, 'is_identity_source', sc.is_identity_source,
          'deleted_by', sc.deleted_by, 'last_updated_by', sc.last_updated_by,
          'created_date', DATE_FORMAT(sc.created_date, '%Y-%m-%dT%H:%i:%sZ'),
          'last_modified_date', DATE_FORMAT(sc.last_modified_date, '%Y-%m-%dT%H:%i:%sZ'))
        FROM service_clients sc
        WHERE sc.chain_id = ap.chain_id AND sc.is_identity_source = 1 AND sc.enabled = 1 AND sc.deleted = 0
        ORDER BY sc.id LIMIT 1))
    FROM authentication_points ap WHERE ap.chain_id = ${chainId})`;
}

// MariaDB gives JSON_OBJECT as text and its booleans as 0/1; MySQL gives a parsed object.
const flag = z.union([z.boolean(), z.number().transform((n) => n !== 0)]);
const storedJson = z.object({
  id: z.number().int(),
  type: z.string(),
  base_url: z.string(),
  service_client: z.object({
    id: z.number().int(),
    name: z.string(),
    email_contact: z.string().nullable(),
    enabled: flag,
    deleted: flag,
    is_identity_source: flag,
    deleted_by: z.number().int().nullable(),
    last_updated_by: z.number().int().nullable(),
    created_date: z.iso.datetime(),
    last_modified_date: z.iso.datetime(),
  }).nullable(),
});

/**
 * The record of an authentication point read by authenticationPointJson.
 * @param value the subquery's value: null, a JSON text or an object
 * @returns null when the chain has none; `service_client` without email_contact when it has none
 *   (the service client renders so), and without `chain`: the chain record that reads it nests
 *   itself there (chains/chain-columns.ts chainRecord)
 * @throws ZodError when the stored value is not the subquery's object (a programming error)
 */
export function authenticationPointRecord(value: unknown): ResourceRecord | null {
  if (value === null || value === undefined) return null;
  const point = storedJson.parse(typeof value === "string" ? JSON.parse(value) : value);
  const client = point.service_client;
  return {
    id: point.id,
    type: point.type,
    base_url: point.base_url,
    service_client: client === null ? null : {
      id: client.id,
      name: client.name,
      ...(client.email_contact === null ? {} : { email_contact: client.email_contact }),
      enabled: client.enabled,
      deleted: client.deleted,
      is_identity_source: client.is_identity_source,
      deleted_by: client.deleted_by === null ? null : { id: client.deleted_by },
      last_updated_by: client.last_updated_by === null ? null : { id: client.last_updated_by },
      created_date: new Date(client.created_date),
      last_modified_date: new Date(client.last_modified_date),
    },
  };
}
