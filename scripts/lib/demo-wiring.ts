/**
 * The demo chain wired both ways (handbook, "Sync between the webshop and the platform": "`npm
 * start` wires the demo chain both ways"): the core API knows the connector as the chain's
 * authentication point (its base URL and integration token) and has an identity-source service
 * client with a chain-scope token; the connector knows the core API's URL, that token and the
 * webshop app's hostname.
 *
 * The secrets both sides need (the integration token, the identity-source token, and the demo
 * shopper's password: the shopper is a webshop customer too, as shoppers of a chain whose
 * authentication point is the webshop log in with the webshop's password) come from
 * SEED_INTEGRATION_TOKEN, SEED_IDENTITY_TOKEN and SEED_SHOPPER_PASSWORD, else they are derived
 * from SERVICE_SECRET_KEY (HKDF-SHA256, one label each): every start of either service, in one process (`npm start`) or
 * in two containers (docker compose), arrives at the same values without the two sides talking,
 * and a database reset on one side still matches the other. Derived values are printed once,
 * when first stored, as generated ones are; SEED_* ones never.
 */
import { hkdfSync } from "node:crypto";
import { parseEnvironment, portVariable, type ConfigResult } from "@service/shared/node";
import type { SecretBox } from "@service/shared/secret-box";
import { z } from "zod";
import { findAuthenticationPoint } from "../../core-api/src/authentication-points/authentication-point-repository.ts";
import type { PrivilegedToken } from "../../core-api/src/authentication-points/identity-source-client.ts";
import type { CoreDb } from "../../core-api/src/db/client.ts";
import { setChainAuthenticationPoint } from "../admin/authentication-point-setup.ts";

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL, for example http://127.0.0.1:8081" });
const wiringSchema = z.object({
  /** the connector's base URL as the core API calls it */
  SEED_CONNECTOR_URL: httpUrl.optional(),
  /** the core API's base URL as the connector calls it */
  SEED_CORE_API_URL: httpUrl.optional(),
  /** `<access token id>:<secret>` of the demo chain's identity-source client */
  SEED_IDENTITY_TOKEN: z.string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\S{16,256}$/i, "must be <uuid>:<secret of 16 to 256 characters>")
    .optional(),
  /**
   * where each service listens, read by both sides: the URLs' defaults (the other service's URL
   * when only one is started), the same variables and defaults as the services' own
   */
  CORE_API_PORT: portVariable(8080),
  CONNECTOR_PORT: portVariable(8081),
});

/** Every variable of the demo wiring (README, "Configuration", documents each). */
export const DEMO_WIRING_VARIABLES = Object.keys(wiringSchema.shape);

export type DemoWiringVariables = z.output<typeof wiringSchema>;

/** A secret both sides use, and where it came from (which decides whether it may be printed). */
export interface WiringSecret<T> {
  value: T;
  /** the SEED_* variable it came from, or `derived` (from SERVICE_SECRET_KEY) */
  from: "SEED_INTEGRATION_TOKEN" | "SEED_IDENTITY_TOKEN" | "SEED_SHOPPER_PASSWORD" | "derived";
}

/** Both sides of the demo chain's wiring. */
export interface DemoWiring {
  /** core API side: the authentication point's base URL */
  connectorUrl: string;
  /** connector side: the core API's base URL */
  coreApiUrl: string;
  /** the bearer token the connector accepts; the core API stores it sealed */
  integrationToken: WiringSecret<string>;
  /** the identity-source client's token: the core API stores its hash, the connector calls with it */
  identityToken: WiringSecret<PrivilegedToken>;
  /** the webshop app's hostname (SEED_APP_HOSTNAME): the connector's add-user calls name it */
  appHostname: string;
  /** the demo shopper: a member of the demo chain and a customer of the webshop, one password */
  shopper: { username: string; password: WiringSecret<string> };
}

/**
 * Checks the wiring variables; empty values count as unset.
 * @returns the variables, or one problem line per bad variable (never its value)
 */
export function parseDemoWiringVariables(env: Record<string, string | undefined>): ConfigResult<DemoWiringVariables> {
  return parseEnvironment(wiringSchema, env);
}

/**
 * The demo wiring of this start.
 * @param given.secretKey SERVICE_SECRET_KEY (at least 32 characters): the derived secrets' key
 * @param given.integrationToken SEED_INTEGRATION_TOKEN, when set
 * @param given.shopperUsername, shopperPassword SEED_SHOPPER_USERNAME, SEED_SHOPPER_PASSWORD (when set)
 * @param given.host, corePort, connectorPort where the services listen (HOST, CORE_API_PORT,
 *   CONNECTOR_PORT): the URLs' defaults
 */
export function demoWiring(
  variables: DemoWiringVariables,
  given: {
    secretKey: string; integrationToken?: string; appHostname: string; shopperUsername: string; shopperPassword?: string;
    host: string; corePort: number; connectorPort: number;
  },
): DemoWiring {
  const identity = variables.SEED_IDENTITY_TOKEN;
  const separator = identity?.indexOf(":") ?? -1;
  return {
    connectorUrl: variables.SEED_CONNECTOR_URL?.replace(/\/+$/, "") ?? localUrl(given.host, given.connectorPort),
    coreApiUrl: variables.SEED_CORE_API_URL?.replace(/\/+$/, "") ?? localUrl(given.host, given.corePort),
    integrationToken: given.integrationToken !== undefined
      ? { value: given.integrationToken, from: "SEED_INTEGRATION_TOKEN" }
      : { value: derive(given.secretKey, "integration token", 24).toString("base64url"), from: "derived" },
    identityToken: identity !== undefined
      ? { value: { id: identity.slice(0, separator).toLowerCase(), secret: identity.slice(separator + 1) }, from: "SEED_IDENTITY_TOKEN" }
      : { value: { id: uuidOf(derive(given.secretKey, "identity token id", 16)), secret: derive(given.secretKey, "identity token secret", 32).toString("hex") }, from: "derived" },
    appHostname: given.appHostname.toLowerCase(),
    shopper: {
      username: given.shopperUsername,
      password: given.shopperPassword !== undefined
        ? { value: given.shopperPassword, from: "SEED_SHOPPER_PASSWORD" }
        : { value: derive(given.secretKey, "shopper password", 18).toString("base64url"), from: "derived" },
    },
  };
}

/**
 * The wiring with the URLs of services started in this process (a port of 0 is known only once
 * it listens), unless SEED_CONNECTOR_URL / SEED_CORE_API_URL name them.
 */
export function withRunningUrls(
  wiring: DemoWiring,
  variables: DemoWiringVariables,
  running: { coreApiUrl?: string; connectorUrl?: string },
): DemoWiring {
  return {
    ...wiring,
    connectorUrl: variables.SEED_CONNECTOR_URL === undefined && running.connectorUrl ? running.connectorUrl : wiring.connectorUrl,
    coreApiUrl: variables.SEED_CORE_API_URL === undefined && running.coreApiUrl ? running.coreApiUrl : wiring.coreApiUrl,
  };
}

/**
 * Core API side: makes the connector the authentication point of the demo chain `chainId` and
 * gives the chain its identity-source client with the wiring's token. Done once: a chain that has
 * an authentication point already (a later start, or one the operator set) is left alone.
 * @returns the lines to print; empty when nothing was done
 * @throws Error when the wiring is refused (a bad URL or token: the variables were checked, so a bug)
 */
export async function wireCoreDemo(db: CoreDb, box: SecretBox, chainId: number, wiring: DemoWiring): Promise<string[]> {
  if (await findAuthenticationPoint(db, chainId)) return [];
  const result = await setChainAuthenticationPoint(db, box, {
    chainId, baseUrl: wiring.connectorUrl, integrationToken: wiring.integrationToken.value, token: wiring.identityToken.value,
  });
  if (!result.ok) throw new Error(`demo wiring refused: ${result.reason}`);
  const { setup } = result;
  const token = `${wiring.identityToken.value.id}:${wiring.identityToken.value.secret}`;
  return [
    `demo chain ${chainId} wired to its webshop:`,
    `  authentication point  ${setup.baseUrl}  (integration token ${wiring.integrationToken.from === "derived" ? "derived from SERVICE_SECRET_KEY" : "from SEED_INTEGRATION_TOKEN"})`,
    `  identity-source token ${setup.token ? secretLine(wiring.identityToken.from, token) : "already stored"}  (client ${setup.identityClient.id}, "${setup.identityClient.name}")`,
  ];
}

/** How a wiring secret is printed: a derived one is shown (once, when stored), a SEED_* one never. */
export function secretLine(from: WiringSecret<unknown>["from"], value: string): string {
  return from === "derived" ? `${value}  (derived from SERVICE_SECRET_KEY: shown only now)` : `from ${from} (not shown)`;
}

/** `bytes` bytes of HKDF-SHA256 of `secretKey` for `label`. */
function derive(secretKey: string, label: string, bytes: number): Buffer {
  return Buffer.from(hkdfSync("sha256", secretKey, "", `service-platform demo wiring v1: ${label}`, bytes));
}

/** 16 bytes as a version-4-shaped UUID (what access token ids look like). */
function uuidOf(bytes: Buffer): string {
  const b = Buffer.from(bytes);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The URL of a service listening on `host`:`port`, as another process on this machine reaches it. */
function localUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}
