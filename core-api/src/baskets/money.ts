/**
 * Money in integer cents (handbook, "Baskets": money): amounts come in as JSON numbers or decimal
 * strings with at most 2 decimals, all arithmetic is on whole cents, every money value in a
 * response is a decimal string with exactly 2 places, and rounding is half-up (away from zero)
 * to the cent. Pure functions, no database.
 */

/** A whole number of cents (may be negative). */
export type Cents = number;

const DECIMAL = /^(-)?(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * Reads an amount in the chain's currency as cents.
 * @param value a JSON number (`12.5`) or a decimal string (`"12.50"`, `"-3"`)
 * @returns the amount in cents, or null when it is not a decimal with at most 2 places
 * @example toCents("12.5") === 1250; toCents(0.125) === null
 */
export function toCents(value: unknown): Cents | null {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    // A JSON number reads back as its shortest decimal form (0.1 -> "0.1"), so 2 places stay 2.
    text = String(value);
    if (/e/i.test(text)) return null;
  } else if (typeof value === "string") text = value.trim();
  else return null;
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] && cents !== 0 ? -cents : cents;
}

/**
 * Writes cents as a decimal string with exactly 2 places.
 * @example formatCents(-5) === "-0.05"; formatCents(1250) === "12.50"
 */
export function formatCents(cents: Cents): string {
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const frac = String(abs % 100).padStart(2, "0");
  return `${cents < 0 ? "-" : ""}${whole}.${frac}`;
}

/** Cents as a plain number of the currency (for the DECIMAL(12,2) columns). */
export function centsToNumber(cents: Cents): number {
  return Number(formatCents(cents));
}

/** Scale of ratios and quantities in the exact arithmetic below: 6 decimals. */
const SCALE = 1_000_000n;

/** `n / d` rounded half-up (away from zero), for d > 0. */
export function divideHalfUp(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (a * 2n + d) / (d * 2n);
  return neg ? -q : q;
}

/** A non-negative decimal factor (a ratio or a quantity) fixed to 6 decimals. */
function scaled(factor: number): bigint {
  return BigInt(Math.round(factor * Number(SCALE)));
}

/**
 * `cents x factor`, rounded half-up to the cent; the factor (a ratio like 0.15 or a quantity like
 * 1.5) is taken at 6 decimals, so 0.05 x 0.1 = 0.005 rounds to 0.01 and not, by binary
 * floating point, to 0.00.
 */
export function multiplyHalfUp(cents: Cents, factor: number): Cents {
  return Number(divideHalfUp(BigInt(cents) * scaled(factor), SCALE));
}

/**
 * Splits `total` cents over `weights` in proportion, by largest remainder: every share is the
 * floor of its exact share and the cents left go one each to the largest remainders, ties to the
 * earlier weight; the shares add up to `total` exactly. Weights are >= 0 with a positive sum;
 * `total` is at most their sum, so no share exceeds its weight.
 */
export function splitByLargestRemainder(total: Cents, weights: readonly Cents[]): Cents[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return weights.map(() => 0);
  const t = BigInt(total);
  const s = BigInt(sum);
  const shares = weights.map((w) => (t * BigInt(w)) / s);
  const remainders = weights.map((w, i) => ({ i, r: (t * BigInt(w)) % s }));
  let left = total - shares.reduce((a, b) => a + Number(b), 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left <= 0) break;
    shares[i]! += 1n;
    left -= 1;
  }
  return shares.map(Number);
}
