/**
 * Business rows <-> Resources records (spec, "Business"): the business's storage mapping, derived
 * from the declaration by the rules of db/resource-columns.ts and checked when this module loads.
 * Its filters and sort keys are served by businesses/search.ts, which filters and sorts on any
 * column, so a new F or S property needs its declaration line and its column only; a new FT
 * property also needs a field in the word index (checked here too). Pure.
 */
import { businessResource } from "@service/shared/resources/business";
import { addedByRecordBuilder, resourceColumns, type ResourceRecord } from "../db/resource-columns.ts";
import { businesses } from "../db/schema.ts";
import type { BusinessRow } from "./business-repository.ts";
import { TOKEN_FIELD } from "./word-index.ts";

/** The business's storage mapping. */
export const businessColumns = resourceColumns(businessResource, businesses, {
  exceptions: {
    business_distance_km: addedByRecordBuilder("computed per hit by a location search (businesses/search.ts)"),
  },
});

// The search filters and sorts by column key (businesses/search.ts) and searches the word index.
for (const prop of businessResource.properties.values()) {
  if ((prop.filter || prop.sort) && !businessColumns.properties.get(prop.name)?.key) {
    throw new Error(`business.${prop.name}: a filter or sort key the search can only serve from a column of businesses`);
  }
  if (prop.fulltext && !(prop.name in TOKEN_FIELD)) throw new Error(`business.${prop.name}: full-text (FT) but the word index has no field for it`);
}

/**
 * A stored row as a resource record, without business_distance_km (only a location search gives it).
 * @param chain the chain record to nest under `chain` (see chains/nested-record.ts)
 */
export function businessRecord(row: BusinessRow, chain: ResourceRecord): ResourceRecord {
  const record = businessColumns.toRecord(row);
  record.chain = chain;
  return record;
}
