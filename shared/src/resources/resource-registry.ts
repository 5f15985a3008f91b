/**
 * Every declared resource by name: the engine resolves references (`x-service-reference`)
 * through this map, and the schema document will list it.
 */
import { businessResource } from "./business.ts";
import { chainResource } from "./chain.ts";
import { voucherResource } from "./voucher.ts";
import { accessTokenResource } from "./access-token.ts";
import { serviceClientResource } from "./service-client.ts";
import { contentPageResource } from "./content-page.ts";
import { allowedIpRangeResource } from "./allowed-ip-range.ts";
import type { ResourceDeclaration } from "./meta.ts";
import { memberNumberRangeResource } from "./member-number-range.ts";
import { eventDeliveryResource } from "./event-delivery.ts";
import { webhookResource } from "./webhook.ts";
import { authenticationPointResource } from "./authentication-point.ts";

export * from "./meta.ts";
export { businessResource, type Business } from "./business.ts";
export { chainResource, type Chain } from "./chain.ts";
export { voucherResource, VOUCHER_STATUSES, VOUCHER_TYPES, type Voucher, type VoucherStatus, type VoucherType } from "./voucher.ts";
export { accessTokenResource, type AccessToken } from "./access-token.ts";
export { serviceClientResource, type ServiceClient } from "./service-client.ts";
export { contentPageResource, type ContentPage, type Zone } from "./content-page.ts";
export { allowedIpRangeResource, type AllowedIpRange } from "./allowed-ip-range.ts";
export { memberNumberRangeResource, type MemberNumberRange } from "./member-number-range.ts";
export { webhookResource, WEBHOOK_EVENT_TYPES, type Webhook, type WebhookEventType } from "./webhook.ts";
export { eventDeliveryResource, EVENT_DELIVERY_STATUSES, type EventDelivery, type EventDeliveryStatus } from "./event-delivery.ts";
export { authenticationPointResource, AUTHENTICATION_POINT_TYPES, type AuthenticationPoint, type AuthenticationPointType } from "./authentication-point.ts";
// The change log entry is served only under /resources/campaign/{id}/change_log, not as a
// resource of its own, so it is exported here but not listed in RESOURCES.
export { changeLogEntryResource, type ChangeLogEntry } from "./change-log.ts";

export const RESOURCES: ReadonlyMap<string, ResourceDeclaration> = new Map<string, ResourceDeclaration>([
  [businessResource.name, businessResource],
  [chainResource.name, chainResource],
  [voucherResource.name, voucherResource],
  [accessTokenResource.name, accessTokenResource],
  [serviceClientResource.name, serviceClientResource],
  [contentPageResource.name, contentPageResource],
  [allowedIpRangeResource.name, allowedIpRangeResource],
  [memberNumberRangeResource.name, memberNumberRangeResource],
  [webhookResource.name, webhookResource],
  [eventDeliveryResource.name, eventDeliveryResource],
  // Rendered nested in the chain only (no path serves it).
  [authenticationPointResource.name, authenticationPointResource],
]);
