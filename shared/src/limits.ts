/**
 * Limits of the specification ("Limits") that more than one API family applies.
 */

/** Radius in kilometres of a location search given without one (Resources lists and get-businesses). */
export const DEFAULT_RADIUS_KM = 25;
