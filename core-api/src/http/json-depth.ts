/**
 * The nesting depth of JSON values, measured without recursion: a request may nest arrays and
 * objects only so deep, because validating, copying or serialising a value recurses once per
 * level and a value nested thousands of levels deep (a few KB of `[[[[...`) would exhaust the
 * stack. Every value the API reads or stores as JSON is checked against one limit.
 */

/**
 * Deepest nesting a request value or a stored JSON value may have: a top-level object or array
 * is level 1. The deepest declared shape (a content page's zones and their items inside a body)
 * uses 5.
 */
export const MAX_PARAM_DEPTH = 32;

/**
 * Whether `value` nests arrays and objects deeper than `max` levels (a scalar is level 0).
 * Iterative: safe for any depth.
 * @example exceedsDepth({ a: [1] }, 1) // true: the array is level 2
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (level > max) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, level + 1]);
    }
  }
  return false;
}
