/**
 * The business record of the internal calls (spec, add-business, alter-business and
 * get-businesses responses), rendered from a stored row. Shapes: the zod contracts in
 * `@service/shared/internal/{add-business,alter-business,get-businesses}`.
 */
import type { InternalBusiness } from "@service/shared/internal/add-business";
import type { AlteredBusiness } from "@service/shared/internal/alter-business";
import type { ListedBusiness } from "@service/shared/internal/get-businesses";
import type { BusinessRow } from "../businesses/business-repository.ts";
import type { BusinessHit } from "../businesses/search.ts";
import { formatDateTime, type ApiVersion } from "../http/api-version.ts";

/**
 * A coordinate as decimal text without exponent: 52.3791 -> "52.3791", 1e-7 -> "0.0000001".
 * Plain `String()` keeps every digit the stored double has; only tiny values need fixed notation.
 */
export function decimalText(value: number | null): string | null {
  if (value === null) return null;
  const plain = String(value === 0 ? 0 : value);
  if (!/e/i.test(plain)) return plain;
  return value.toFixed(12).replace(/\.?0+$/, "");
}

/**
 * The add-business record: every spec key, coordinates as decimal text, datetimes per API version.
 */
export function renderBusiness(row: BusinessRow, version: ApiVersion): InternalBusiness {
  return {
    address_1: row.address1,
    address_2: row.address2,
    address_3: row.address3,
    business_format: row.businessFormat,
    chain_id: row.chainId,
    created_date: formatDateTime(row.createdDate, version)!,
    countrycode: row.countryCode,
    deleted: row.deleted,
    deleted_by: row.deletedBy,
    email_address: row.emailAddress,
    format: row.businessFormat,
    google_place_id: row.googlePlaceId,
    id: row.id,
    image_url: row.imageUrl,
    is_shut_down: row.isShutDown,
    last_modified_date: formatDateTime(row.lastModifiedDate, version)!,
    latitude: decimalText(row.latitude),
    longitude: decimalText(row.longitude),
    name: row.name,
    opening_times: row.openingTimes,
    owner_code: row.ownerCode,
    phone_number: row.phoneNumber,
    postalcode: row.postalcode,
    programme_opted_in: row.programmeOptedIn,
    region: row.region,
    towncity: row.towncity,
    review_url: row.reviewUrl,
    type: "business",
    website_url: row.websiteUrl,
  };
}

/** The alter-business record: the add-business record without the six keys the spec leaves out. */
export function renderAlteredBusiness(row: BusinessRow, version: ApiVersion): AlteredBusiness {
  const { deleted, deleted_by, format, is_shut_down, phone_number, programme_opted_in, ...record } = renderBusiness(row, version);
  return record;
}

/**
 * A get-businesses record: coordinates as numbers, and `business_distance_km` (kilometres) when
 * the search has a location.
 */
export function renderListedBusiness(hit: BusinessHit, version: ApiVersion): ListedBusiness {
  // The add-business record with the coordinates as numbers, changed in place (a page renders
  // hundreds of these: one object each, not two).
  const record = renderBusiness(hit.row, version) as unknown as ListedBusiness;
  record.latitude = hit.row.latitude;
  record.longitude = hit.row.longitude;
  if (hit.distanceKm !== null) record.business_distance_km = hit.distanceKm;
  return record;
}
