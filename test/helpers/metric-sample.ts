/**
 * Reading a Prometheus text exposition (what both services' /metrics answer) in tests.
 */

/**
 * The value of the sample `name{labels}` with exactly these labels in a text exposition.
 * @param text the exposition, as /metrics answers it
 * @returns the sample's value, or undefined when there is none
 */
export function metricSample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? "").split(",").filter(Boolean);
    if (have.length === wanted.length && wanted.every((w) => have.includes(w))) return Number(m[3]);
  }
  return undefined;
}
