import { businessResource } from "@service/shared/resources/business";
import { describe, expect, it } from "vitest";
import { nestBracketKeys } from "../http/params.ts";
import { validateWrite } from "./write.ts";

const decl = businessResource;
const json = { source: "json" as const };
const fails = (fn: () => unknown, errorName: string) => expect(fn).toThrow(expect.objectContaining({ errorName }));

describe("validateWrite", () => {
  it("POST: the given values plus declared defaults", () => {
    expect(validateWrite(decl, "post", { name: "A", owner_code: "X", chain: { id: 2, name: "echo" } }, json)).toEqual({
      name: "A", owner_code: "X", chain: { id: 2 }, chain_member: true, is_shut_down: false,
    });
  });

  it("PUT: every writable property, omitted ones reset; immutable chain not touched", () => {
    const v = validateWrite(decl, "put", { name: "A", owner_code: "X" }, { ...json, targetId: 1 });
    expect(v).toEqual({
      name: "A", owner_code: "X", chain_member: true, is_shut_down: false, address_1: null, address_2: null, address_3: null,
      country_code: null, latitude: null, longitude: null, phone_number: null, postalcode: null, region: null, towncity: null,
    });
  });

  it("PATCH: only the given properties; id equal to the target is tolerated", () => {
    expect(validateWrite(decl, "patch", { region: "R", id: 5 }, { ...json, targetId: 5 })).toEqual({ region: "R" });
    fails(() => validateWrite(decl, "patch", { id: 6 }, { ...json, targetId: 5 }), "parameter_invalid");
  });

  it("refuses unknown, read-only, immutable (on PUT/PATCH) and wrongly typed properties with 419", () => {
    for (const [method, body] of [
      ["post", { name: "A", owner_code: "X", extra: 1 }],
      ["post", { name: "A", owner_code: "X", id: 1 }],
      ["post", { name: "A", owner_code: "X", deleted: false }],
      ["patch", { chain: { id: 1 } }],
      ["patch", { last_modified_date: "2026-01-01T00:00:00Z" }],
      ["patch", { latitude: "1" }],
      ["patch", { is_shut_down: 1 }],
      ["patch", { name: null }],
      ["patch", { country_code: "NLD" }],
      ["patch", { chain_member: null }],
    ] as const) {
      fails(() => validateWrite(decl, method, body, { ...json, targetId: 9 }), "parameter_invalid");
    }
  });

  it("482 for a string over its maximum, 441 for a missing req-post property", () => {
    fails(() => validateWrite(decl, "patch", { towncity: "t".repeat(256) }, json), "string_parameter_too_long");
    fails(() => validateWrite(decl, "post", { name: "A" }, json), "parameter_missing");
    fails(() => validateWrite(decl, "put", { owner_code: "A" }, json), "parameter_missing");
  });

  it("converts form strings per property type; empty means null for nullable properties", () => {
    const form = { source: "form" as const };
    expect(
      validateWrite(decl, "patch", { latitude: "52.5", is_shut_down: "false", chain_member: "1", region: "", owner_code: "007" }, form),
    ).toEqual({ latitude: 52.5, is_shut_down: false, chain_member: true, region: null, owner_code: "007" });
    expect(validateWrite(decl, "post", nestBracketKeys([["name", "A"], ["owner_code", "B"], ["chain[id]", "4"]]), form).chain).toEqual({ id: 4 });
    fails(() => validateWrite(decl, "patch", { latitude: "north" }, form), "parameter_invalid");
    fails(() => validateWrite(decl, "patch", { is_shut_down: "perhaps" }, form), "parameter_invalid");
    // One text rule for both API families: a form boolean may also be yes/no, on/off.
    expect(validateWrite(decl, "patch", { is_shut_down: "yes", chain_member: "off" }, form)).toEqual({ is_shut_down: true, chain_member: false });
    fails(() => validateWrite(decl, "patch", { latitude: "1e309" }, form), "parameter_invalid");
    fails(() => validateWrite(decl, "patch", { name: "" }, form), "parameter_invalid");
  });
});
