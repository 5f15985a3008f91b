/**
 * Magento's directory: the region list per country.
 */
import { index, int, mysqlTable, varchar } from "drizzle-orm/mysql-core";
import { unsigned } from "./columns.ts";

/** Magento's region list per country (empty unless loaded; regions then resolve to ids). */
export const directoryCountryRegion = mysqlTable(
  "directory_country_region",
  {
    regionId: int("region_id", unsigned).autoincrement().primaryKey(),
    countryId: varchar("country_id", { length: 4 }).notNull().default("0"),
    code: varchar("code", { length: 32 }),
    defaultName: varchar("default_name", { length: 255 }),
  },
  (t) => [index("DIRECTORY_COUNTRY_REGION_COUNTRY_ID").on(t.countryId)],
);
