/**
 * Registers the Resources API (spec, "Resources API, generic paths"): for every resource with an
 * adapter, `/resources/{resource}`, `/resources/{resource}/{id}` and `/resources/{resources}`.
 * Any method a path does not offer answers 544 resource_not_found (handbook); unknown paths are
 * answered by app.notFound the same way.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../auth/request-context.ts";
import { accessTokenAdapter } from "./access-token.ts";
import { allowedIpRangeAdapter } from "./allowed-ip-range.ts";
import { businessAdapter } from "./business.ts";
import { chainAdapter } from "./chain.ts";
import { CAMPAIGN_CHANGE_LOG_PATH, serveCampaignChangeLog } from "./campaign-change-log.ts";
import { contentPageAdapter } from "./content-page.ts";
import { servePlural, serveSingular, type ResourceAdapter } from "./engine.ts";
import { registerSchema } from "./schema-document.ts";
import { serviceClientAdapter } from "./service-client.ts";
import { voucherAdapter } from "./voucher.ts";
import { memberNumberRangeAdapter } from "./member-number-range.ts";
import { eventDeliveryAdapter } from "./event-delivery.ts";
import { webhookAdapter } from "./webhook.ts";

/** The resources served, in the order of the spec. */
export const ADAPTERS: readonly ResourceAdapter[] = [businessAdapter, voucherAdapter, accessTokenAdapter, serviceClientAdapter, contentPageAdapter, allowedIpRangeAdapter, chainAdapter, memberNumberRangeAdapter, webhookAdapter, eventDeliveryAdapter];

/** Mounts every resource on `app`. */
export function registerResources(app: Hono<AppEnv>): void {
  for (const adapter of ADAPTERS) {
    const { path, pluralPath } = adapter.declaration;
    app.all(path, (c) => serveSingular(c, adapter));
    app.all(`${path}/:id`, (c) => serveSingular(c, adapter, c.req.param("id")));
    app.all(pluralPath, (c) => servePlural(c, adapter));
  }
  // The Campaign resource offers only its change log (spec, "Campaign"); its other paths are 544.
  app.all(CAMPAIGN_CHANGE_LOG_PATH, serveCampaignChangeLog);
  // The OpenAPI document of all of the above (public); it reads the routes at request time.
  registerSchema(app, ADAPTERS);
}
