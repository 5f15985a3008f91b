/**
 * Drizzle schema of the core API database (`service_core`): the barrel of the tables, one file
 * per aggregate in tables/. drizzle-kit (drizzle.config.ts) and the client read this module, and
 * code imports tables from it.
 *
 * Every hot query filters on the chain first (handbook, "Scale beyond one machine"); indexes are
 * named after the query they serve. Datetimes are stored as UTC.
 */
export * from "./tables/admins.ts";
export * from "./tables/businesses.ts";
export * from "./tables/campaigns.ts";
export * from "./tables/chains.ts";
export * from "./tables/clients.ts";
export * from "./tables/content-pages.ts";
export * from "./tables/currencies.ts";
export * from "./tables/ip-ranges.ts";
export * from "./tables/login-sessions.ts";
export * from "./tables/login-throttle.ts";
export * from "./tables/users.ts";
export * from "./tables/vouchers.ts";
export * from "./tables/campaign-groups.ts";
export * from "./tables/tags.ts";
export * from "./tables/member-number-ranges.ts";
export * from "./tables/baskets.ts";
export * from "./tables/outbox.ts";
export * from "./tables/webhooks.ts";
export * from "./tables/phone-verifications.ts";
export * from "./tables/authentication-points.ts";
export * from "./tables/phone-verification-counters.ts";
