/**
 * Integration-token authentication of every connector endpoint (handbook, "connector auth"):
 * `Authorization: Bearer <token>`, looked up by the SHA-256 hex of the token in
 * service_integration_token. Only hashes are stored; a revoked token (is_active = 0, or the row
 * deleted) fails its very next request, as nothing is cached. Integration tokens are issued to the
 * platform (the core API, which relays shoppers' logins): a request carrying one is the platform's,
 * and the client address it forwards is believed (http/client-address.ts). The same statement reads
 * the chains' websites (service_chain_website), which the customer endpoints resolve their chain
 * from (customers/store-scope.ts resolveChainScope): one round trip for both.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { RequestHandler, Response } from "express";
import type { ConnectorQueryable } from "../db/client.ts";
import { preparedFor } from "../db/prepared.ts";
import { serviceChainWebsite, serviceIntegrationToken } from "../db/schema.ts";
import { AUTHENTICATED_AS_PLATFORM } from "./client-address.ts";
import { notAuthorized } from "./errors.ts";

/** The ACL resource named in the 401 body, as Magento names the resource a route needs. */
export const CONNECTOR_ACL_RESOURCE = "Service_Connector::customer";

/** Lowercase hex SHA-256 of an integration token: what service_integration_token stores. */
export function hashIntegrationToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A row of service_chain_website: a website the chain's customers live in. */
export interface ChainWebsite {
  serviceChainId: number;
  websiteId: number;
}

/** Where requireIntegrationToken keeps the chains' websites (`res.locals`): read them with {@link chainWebsitesOf}. */
const CHAIN_WEBSITES = "chainWebsites";

/**
 * The active token with this hash, if any, joined with every chain's website (ordered by website
 * id): no row for an unknown or revoked token, one row with a null chain when no chain is
 * configured (built once per database: every request runs it).
 */
const activeToken = (db: ConnectorQueryable) =>
  preparedFor(db, "active-integration-token", () =>
    db.select({ tokenHash: serviceIntegrationToken.tokenHash, serviceChainId: serviceChainWebsite.serviceChainId, websiteId: serviceChainWebsite.websiteId })
      .from(serviceIntegrationToken)
      .leftJoin(serviceChainWebsite, sql`true`)
      .where(and(eq(serviceIntegrationToken.tokenHash, sql.placeholder("hash")), eq(serviceIntegrationToken.isActive, true)))
      .orderBy(asc(serviceChainWebsite.websiteId))
      .prepare());

/**
 * The chains' websites requireIntegrationToken read with the token, ordered by website id (empty
 * when no chain is configured); undefined for a request it did not let through.
 */
export function chainWebsitesOf(res: Response): ChainWebsite[] | undefined {
  return res.locals[CHAIN_WEBSITES] as ChainWebsite[] | undefined;
}

/**
 * Express middleware that lets a request through only with an active integration token, marking
 * it as the platform's (`res.locals[AUTHENTICATED_AS_PLATFORM]`) and keeping the chains' websites
 * read with it (chainWebsitesOf).
 * @throws (via next) ConnectorError 401 `The consumer isn't authorized to access %resources.`
 */
export function requireIntegrationToken(db: ConnectorQueryable): RequestHandler {
  return async (req, res, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get("authorization") ?? "");
    if (!match) throw notAuthorized(CONNECTOR_ACL_RESOURCE);
    const hash = hashIntegrationToken(match[1]!);
    const rows = await activeToken(db).execute({ hash });
    const row = rows[0];
    // The index lookup is on the hash, which tells an attacker nothing; compare in constant time anyway.
    if (!row || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) throw notAuthorized(CONNECTOR_ACL_RESOURCE);
    // The platform's request: the client address it forwards is believed (client-address.ts).
    res.locals[AUTHENTICATED_AS_PLATFORM] = true;
    res.locals[CHAIN_WEBSITES] = rows.flatMap((r): ChainWebsite[] =>
      r.serviceChainId === null || r.websiteId === null ? [] : [{ serviceChainId: r.serviceChainId, websiteId: r.websiteId }]);
    next();
  };
}
