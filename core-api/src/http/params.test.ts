import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { allParams, MAX_PARAM_DEPTH, nestBracketKeys, pathOf, queryOf, type Params } from "./params.ts";
import { ServiceError } from "./service-error.ts";

/** The parameters a request carries, read through a one-route Hono app. */
async function paramsOf(path: string, init?: RequestInit): Promise<{ params?: Params; error?: string }> {
  const app = new Hono();
  app.all("*", async (c) => c.json({ params: await allParams(c) }));
  app.onError((err, c) => c.json({ error: err instanceof ServiceError ? err.errorName : String(err) }));
  return (await app.request(path, init)).json();
}
const json = (body: string): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body });
const form = (body: string): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

describe("nestBracketKeys", () => {
  it("nests bracket keys and keeps plain keys", () => {
    expect(nestBracketKeys([["chain[id]", "1"], ["name", "x"]])).toEqual({ chain: { id: "1" }, name: "x" });
    expect(nestBracketKeys([["a[b][c]", "1"], ["a[b][d]", "2"], ["a[e]", "3"]])).toEqual({ a: { b: { c: "1", d: "2" }, e: "3" } });
    expect(nestBracketKeys([["search[*]", "x"], ["search[]", "y"]])).toEqual({ search: { "*": "x", "": "y" } });
    expect(nestBracketKeys([["odd]", "1"], ["[x]", "2"]])).toEqual({ "odd]": "1", "[x]": "2" });
    expect(nestBracketKeys([["n", "1"], ["n", "2"]])).toEqual({ n: "2" });
  });

  it("refuses a key that is both a value and an object, in either order", () => {
    for (const fields of [[["chain", "1"], ["chain[id]", "1"]], [["chain[id]", "1"], ["chain", "1"]], [["a[b]", "1"], ["a[b][c]", "1"]]] as Array<Array<[string, string]>>) {
      expect(() => nestBracketKeys(fields), JSON.stringify(fields)).toThrow(expect.objectContaining({ errorName: "parameter_invalid" }));
    }
  });

  it("sets __proto__ as a key of its own, never on Object.prototype", () => {
    const out = nestBracketKeys([["__proto__[polluted]", "yes"], ["a[__proto__][x]", "1"]]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(JSON.parse(JSON.stringify(out))).toEqual(JSON.parse('{"__proto__":{"polluted":"yes"},"a":{"__proto__":{"x":"1"}}}'));
  });

  it("refuses keys nested deeper than the limit", () => {
    const key = (levels: number) => `a${"[x]".repeat(levels - 1)}`;
    expect(() => nestBracketKeys([[key(MAX_PARAM_DEPTH), "1"]])).not.toThrow();
    expect(() => nestBracketKeys([[key(MAX_PARAM_DEPTH + 1), "1"]])).toThrow(expect.objectContaining({ errorName: "parameter_invalid" }));
    expect(() => nestBracketKeys([[key(8_000), "1"]])).toThrow(expect.objectContaining({ errorName: "parameter_invalid" }));
  });
});

describe("allParams", () => {
  it("returns a JSON body as sent: no flattening, bracket keys stay keys", async () => {
    const body = { search: { name: "x" }, chain: { id: 1 }, "chain[id]": 2, list: [1, { a: null }] };
    expect(await paramsOf("/", json(JSON.stringify(body)))).toEqual({ params: body });
  });

  it("nests the query string and form fields once, a body value winning over the query", async () => {
    expect(await paramsOf("/?search%5Bname%5D=q&limit=5&name=query", form("name=body&location%5Blatitude%5D=52"))).toEqual({
      params: { search: { name: "q" }, limit: "5", name: "body", location: { latitude: "52" } },
    });
  });

  it("refuses JSON nested deeper than the limit (8,000 levels, about 42 KB) with 419, checked without recursion", async () => {
    const deep = (levels: number) => `{"a":${'{"b":'.repeat(levels - 2)}[]${"}".repeat(levels - 2)}}`;
    expect(await paramsOf("/", json(deep(MAX_PARAM_DEPTH)))).toHaveProperty("params");
    expect(await paramsOf("/", json(deep(MAX_PARAM_DEPTH + 1)))).toEqual({ error: "parameter_invalid" });
    const big = deep(8_000);
    expect(big.length).toBeGreaterThan(40_000);
    expect(await paramsOf("/", json(big))).toEqual({ error: "parameter_invalid" });
  });

  it("refuses bodies that are not a JSON object, and unsupported content types", async () => {
    for (const body of ["{name:", "[1]", "3", "null"]) expect(await paramsOf("/", json(body)), body).toEqual({ error: "parameter_invalid" });
    expect(await paramsOf("/", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" })).toEqual({ error: "parameter_invalid" });
  });
});

describe("pathOf and queryOf", () => {
  it("read a serialised URL's path and query as new URL() does", () => {
    const urls = [
      "http://h:1/a/b?x=1#f", "http://h/", "http://h/a%20b?q", "http://h/a#x?y", "http://[::1]:80/x/y?z", "http://h/?",
      "http://h/a/../b/./c?x=%zz", "http://h/é ü?ä=ö&a[b]=1&a[b]=2", "http://h/x?a=1?b=2#c?d", "http://h/x?#", "http://h/x?a=%23#b",
    ];
    for (const raw of urls) {
      const href = new URL(raw).href;
      const url = new URL(href);
      expect(pathOf(href)).toBe(url.pathname);
      expect(queryOf(href)).toBe(url.search.slice(1));
      expect(new URLSearchParams(queryOf(href)).toString()).toBe(url.searchParams.toString());
    }
  });
});
