/** typedSchema: the same constraints, with a `type` on every schema. */
import { describe, expect, it } from "vitest";
import { typedSchema } from "./schema-typed.ts";

describe("typedSchema", () => {
  it("turns a value-or-null into one schema whose type admits null, keeping the outer keywords", () => {
    expect(typedSchema({ anyOf: [{ type: "string", maxLength: 5, description: "inner" }, { type: "null" }], description: "outer", "x-service-recursion-level": 2 }))
      .toEqual({ type: ["string", "null"], maxLength: 5, description: "outer", "x-service-recursion-level": 2 });
    expect(typedSchema({ anyOf: [{ type: "null" }, { type: "string", enum: ["a", "b"] }] })).toEqual({ type: ["string", "null"], enum: ["a", "b", null] });
    expect(typedSchema({ anyOf: [{ type: "string", const: "x" }, { type: "null" }] })).toEqual({ type: ["string", "null"], enum: ["x", null] });
  });

  it("flattens a nested anyOf and names the branches' types", () => {
    const out = typedSchema({ anyOf: [{ anyOf: [{ type: "integer", description: "an id" }, { type: "object" }] }, { type: "null" }] });
    expect(out).toEqual({ type: ["integer", "object", "null"], anyOf: [{ type: "integer", description: "an id" }, { type: "object" }, { type: "null" }] });
    // mergeable inner branches become one schema first, which then admits null
    expect(typedSchema({ anyOf: [{ anyOf: [{ type: "integer", minimum: 1 }, { type: "object", properties: { id: { type: "integer" } } }] }, { type: "null" }] }))
      .toEqual({ type: ["integer", "object", "null"], minimum: 1, properties: { id: { type: "integer" } } });
  });

  it("rewrites subschemas and drops the empty schema where it means the same as nothing", () => {
    const out = typedSchema({
      type: "object",
      properties: { a: { anyOf: [{ type: "number" }, { type: "null" }] }, ref: { type: "object", additionalProperties: {} } },
      additionalProperties: false,
    });
    expect(out).toEqual({ type: "object", properties: { a: { type: ["number", "null"] }, ref: { type: "object" } }, additionalProperties: false });
  });

  it("leaves a branch list it cannot type, and a typed schema, as they are", () => {
    expect(typedSchema({ anyOf: [{ $ref: "#/x" }, { type: "null" }] })).toEqual({ anyOf: [{ $ref: "#/x" }, { type: "null" }] });
    expect(typedSchema({ type: "string", anyOf: [{ minLength: 1 }, { maxLength: 0 }] })).toEqual({ type: "string", anyOf: [{ minLength: 1 }, { maxLength: 0 }] });
  });
});

describe("typedSchema merging branches", () => {
  it("merges branches of distinct types whose keywords each constrain their own type only", () => {
    const out = typedSchema({
      anyOf: [{ type: "string" }, { type: "array", items: { type: "integer" } }, { type: "null" }],
      description: "ids",
    });
    expect(out).toEqual({ type: ["string", "array", "null"], items: { type: "integer" }, description: "ids" });
  });

  it("keeps the branches when a keyword would reach another type, or two branches share a type", () => {
    const described = { anyOf: [{ type: "string", description: "text" }, { type: "object" }, { type: "null" }] };
    expect(typedSchema(described)).toEqual({ type: ["string", "object", "null"], ...described });
    const numbers = { anyOf: [{ type: "integer", minimum: 0 }, { type: "number", maximum: 1 }, { type: "null" }] };
    expect(typedSchema(numbers)).toEqual({ type: ["integer", "number", "null"], ...numbers });
  });
});
