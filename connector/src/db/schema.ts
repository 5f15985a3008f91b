/**
 * Drizzle schema of the connector's customer store (`service_webshop`): the barrel of the
 * tables, one file per aggregate in tables/. drizzle-kit (drizzle.config.ts) and the client read
 * this module, and code imports tables from it.
 *
 * The Magento tables keep Magento 2's own table, column and index names (handbook, "The
 * Magento-compatible customer store"), so the store reads like a Magento database and the
 * connector could be pointed at one. Our own data lives in `service_*` tables. No foreign keys:
 * the store must run on MySQL-protocol distributed engines (handbook, "Scale beyond one machine");
 * the repository keeps references consistent inside transactions instead.
 * Datetimes are UTC, written from the injected clock.
 */
export * from "./tables/authenticate-throttle.ts";
export * from "./tables/core-config-data.ts";
export * from "./tables/customers.ts";
export * from "./tables/directory.ts";
export * from "./tables/integration-tokens.ts";
export * from "./tables/newsletter.ts";
export * from "./tables/platform-sync.ts";
export * from "./tables/stores.ts";
export * from "./tables/transaction-marker.ts";
