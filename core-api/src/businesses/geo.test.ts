import { describe, expect, it } from "vitest";
import { CELL_DEGREES, cellCover, cellRangesWithin, distanceKm, geoCell } from "./geo.ts";

const inRanges = (cell: number, ranges: ReadonlyArray<readonly [number, number]>) => ranges.some(([a, b]) => cell >= a && cell <= b);
const COLUMNS = Math.round(360 / CELL_DEGREES);

/** Deterministic pseudo-random numbers in [0, 1). */
function random(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe("distanceKm", () => {
  it("matches known distances", () => {
    // Amsterdam Centraal to Utrecht Centraal is about 35 km as the crow flies.
    expect(distanceKm(52.3791, 4.9003, 52.0894, 5.1101)).toBeGreaterThan(34);
    expect(distanceKm(52.3791, 4.9003, 52.0894, 5.1101)).toBeLessThan(36);
    expect(distanceKm(10, 20, 10, 20)).toBe(0);
    // A quarter of a great circle.
    expect(distanceKm(0, 0, 0, 90)).toBeCloseTo((Math.PI * 6371.0088) / 2, 6);
  });
});

describe("cellCover", () => {
  // Properties, for centres all over the globe (poles, antimeridian, large circles): every point
  // within the radius lies in a covered cell, and every point of an inner cell lies within it.
  const centres: Array<[number, number, number]> = [
    [52.3791, 4.9003, 25],
    [0, 179.95, 30],
    [-33.9, -179.99, 100],
    [89.9, 10, 20],
    [-89.5, 0, 80],
    [60, 0, 500],
    [0.05, 0.05, 1],
    [47.1, 8.2, 0.3],
    [52.3, 5.0, 2500],
  ];
  for (const [lat, lon, r] of centres) {
    it(`covers every point within ${r} km of (${lat}, ${lon}) and keeps inner cells inside`, () => {
      const { inner, boundary } = cellCover(lat, lon, r);
      const all = cellRangesWithin(lat, lon, r);
      const rand = random(42);
      let within = 0;
      for (let i = 0; i < 20000; i++) {
        const pLat = Math.max(-90, Math.min(90, lat + (rand() - 0.5) * 2 * (r / 100)));
        const pLon = ((lon + (rand() - 0.5) * 2 * Math.min(180, r / 5) + 540) % 360) - 180;
        const cell = geoCell(pLat, pLon)!;
        if (distanceKm(lat, lon, pLat, pLon) <= r) {
          within++;
          expect(inRanges(cell, all)).toBe(true);
          expect(inRanges(cell, inner) || inRanges(cell, boundary)).toBe(true);
        } else {
          expect(inRanges(cell, inner)).toBe(false);
        }
      }
      expect(within).toBeGreaterThan(100);
      // Corners of every inner cell lie within the radius.
      for (const [a, b] of inner.slice(0, 50)) {
        for (const cell of [a, b]) {
          const south = Math.floor(cell / COLUMNS) * CELL_DEGREES - 90;
          const west = (cell % COLUMNS) * CELL_DEGREES - 180;
          for (const [cLat, cLon] of [[south, west], [south + CELL_DEGREES, west], [south, west + CELL_DEGREES], [south + CELL_DEGREES, west + CELL_DEGREES]]) {
            expect(distanceKm(lat, lon, cLat!, cLon!)).toBeLessThanOrEqual(r);
          }
        }
      }
    });
  }

  it("keeps a 25 km search around Amsterdam to a few dozen ranges, most of the area inner", () => {
    const { inner, boundary } = cellCover(52.3791, 4.9003, 25);
    const size = (rs: ReadonlyArray<readonly [number, number]>) => rs.reduce((n, [a, b]) => n + b - a + 1, 0);
    expect(inner.length + boundary.length).toBeLessThanOrEqual(80);
    expect(size(inner)).toBeGreaterThan(2 * size(boundary));
  });

  it("takes the whole latitude band for a circle spanning more grid rows than it lists", () => {
    const { inner, boundary } = cellCover(50, 10, 5000);
    expect(inner).toEqual([]);
    expect(boundary).toHaveLength(1);
  });
});
