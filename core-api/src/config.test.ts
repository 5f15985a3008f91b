/** LOG_LEVEL in the core API's configuration (config.ts). */
import { describe, expect, it } from "vitest";
import { loadCoreConfig } from "./config.ts";

describe("LOG_LEVEL", () => {
  it("defaults to info, takes pino's levels and refuses anything else by name", () => {
    expect(loadCoreConfig({}).logLevel).toBe("info");
    expect(loadCoreConfig({ LOG_LEVEL: "debug" }).logLevel).toBe("debug");
    expect(loadCoreConfig({ LOG_LEVEL: "silent" }).logLevel).toBe("silent");
    expect(() => loadCoreConfig({ LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
  });
});
