import { describe, expect, it } from "vitest";
import { cellRangesWithin, distanceKm, geoCell } from "./geo.ts";

const inRanges = (cell: number, ranges: Array<[number, number]>) => ranges.some(([a, b]) => cell >= a && cell <= b);

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

describe("cellRangesWithin", () => {
  // Property: every point within the radius lies in a covered cell, for centres all over the globe,
  // including near the poles and across the antimeridian.
  const centres: Array<[number, number, number]> = [
    [52.3791, 4.9003, 25],
    [0, 179.95, 30],
    [-33.9, -179.99, 100],
    [89.9, 10, 20],
    [-89.5, 0, 80],
    [60, 0, 500],
    [0.05, 0.05, 1],
  ];
  for (const [lat, lon, r] of centres) {
    it(`covers every point within ${r} km of (${lat}, ${lon})`, () => {
      const ranges = cellRangesWithin(lat, lon, r);
      let seed = 42;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      let checked = 0;
      for (let i = 0; i < 20000; i++) {
        const pLat = Math.max(-90, Math.min(90, lat + (rand() - 0.5) * 2 * (r / 100)));
        const pLon = ((lon + (rand() - 0.5) * 2 * (r / 5) + 540) % 360) - 180;
        if (distanceKm(lat, lon, pLat, pLon) > r) continue;
        checked++;
        expect(inRanges(geoCell(pLat, pLon)!, ranges)).toBe(true);
      }
      expect(checked).toBeGreaterThan(100);
    });
  }

  it("keeps a 25 km search around Amsterdam to a few small ranges", () => {
    const ranges = cellRangesWithin(52.3791, 4.9003, 25);
    expect(ranges.length).toBeLessThanOrEqual(7);
    const cells = ranges.reduce((n, [a, b]) => n + b - a + 1, 0);
    expect(cells).toBeLessThan(60);
  });
});
