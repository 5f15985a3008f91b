/**
 * The demo and the benchmark find the services where `npm start` puts them: the flag, else
 * CORE_API_URL / CONNECTOR_URL, else 127.0.0.1 at CORE_API_PORT / CONNECTOR_PORT (8080 / 8081
 * when unset), the same variables the README's walkthrough builds its URLs from.
 */
import { afterEach, describe, expect, it } from "vitest";
import { localServiceUrl, parseFlags, serviceUrls } from "../scripts/lib/options.ts";

const VARIABLES = ["CORE_API_URL", "CONNECTOR_URL", "CORE_API_PORT", "CONNECTOR_PORT"] as const;
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));
afterEach(() => {
  for (const v of VARIABLES) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
});
const setEnv = (vars: Partial<Record<(typeof VARIABLES)[number], string>>) => {
  for (const v of VARIABLES) delete process.env[v];
  Object.assign(process.env, vars);
};

describe("serviceUrls", () => {
  it("follows CORE_API_PORT and CONNECTOR_PORT when no URL is given", () => {
    setEnv({ CORE_API_PORT: "18080", CONNECTOR_PORT: "18081" });
    expect(serviceUrls(parseFlags([]))).toEqual({ coreApiUrl: "http://127.0.0.1:18080", connectorUrl: "http://127.0.0.1:18081" });
  });

  it("uses 8080 and 8081 when nothing is set, and a URL or flag over the port", () => {
    setEnv({});
    expect(serviceUrls(parseFlags([]))).toEqual({ coreApiUrl: "http://127.0.0.1:8080", connectorUrl: "http://127.0.0.1:8081" });
    setEnv({ CORE_API_PORT: "18080", CORE_API_URL: "http://core.test:9000/", CONNECTOR_PORT: "not-a-port" });
    expect(serviceUrls(parseFlags(["--connector-url", "http://shop.test"]))).toEqual({ coreApiUrl: "http://core.test:9000", connectorUrl: "http://shop.test" });
  });

  it("names the variable when the port cannot give a URL", () => {
    expect(() => localServiceUrl("CORE_API_PORT", { CORE_API_PORT: "80a" })).toThrow(/^CORE_API_PORT=80a: must be a port number/);
    expect(() => localServiceUrl("CONNECTOR_PORT", { CONNECTOR_PORT: "0" })).toThrow(/CONNECTOR_PORT=0 .*give CONNECTOR_URL/);
    expect(localServiceUrl("CONNECTOR_PORT", { CONNECTOR_PORT: "" })).toBe("http://127.0.0.1:8081");
  });
});
