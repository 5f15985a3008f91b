/**
 * The demo world `npm start` seeds on empty databases (handbook, "Configuration"): the demo chain
 * with its super-user admin, app hostname and shopper in the core database, the Magento skeleton
 * and an integration token in the webshop store. Returns the lines to print: a secret appears
 * there only when it was generated here (shown that once, as nobody else knows it); one taken
 * from a SEED_* variable is named by its variable, never printed (the operator has it already,
 * and start logs end up in log stores).
 */
import { randomBytes } from "node:crypto";
import { parseEnvironment, type ConfigResult } from "@service/shared/node";
import { z } from "zod";
import type { CoreDb } from "../../core-api/src/db/client.ts";
import { findDemoChainId, seedDemoChain } from "../../core-api/src/db/seed.ts";
import type { ConnectorDb } from "../../connector/src/db/client.ts";
import { seedConnector } from "../../connector/src/db/seed.ts";
import { serviceChainWebsite, storeWebsite } from "../../connector/src/db/schema.ts";
import { asc, eq } from "drizzle-orm";
import { findCustomersByEmail } from "../../connector/src/customers/repository.ts";
import { resolveChainScope } from "../../connector/src/customers/store-scope.ts";
import { updateCustomerFromUserInfo } from "../../connector/src/customers/update-customer.ts";
import { openSecretBox } from "@service/shared/secret-box";

const seedSchema = z.object({
  SEED_ADMIN_USERNAME: z.string().max(255, "must be at most 255 characters").default("admin@demo.example"),
  SEED_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  SEED_APP_HOSTNAME: z.string().regex(/^[a-z0-9.-]{1,255}$/i, "must be a hostname, for example shop.localhost").default("shop.localhost"),
  SEED_SHOPPER_USERNAME: z.string().max(255, "must be at most 255 characters").default("shopper@demo.example"),
  SEED_SHOPPER_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
  /** read by both sides: the connector accepts it, the core API calls the connector with it (lib/demo-wiring.ts) */
  SEED_INTEGRATION_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
});

/** Every SEED_* variable of the demo chain (README, "Configuration", documents each). */
export const DEMO_SEED_VARIABLES = Object.keys(seedSchema.shape);

/** The demo chain's SEED_* variables (SEED_CHAIN_ID is the connector's, connector/src/config.ts). */
export type DemoSeedVariables = z.output<typeof seedSchema>;

/** A generated secret: `bytes` random bytes as base64url. */
export type SecretGenerator = (bytes: number) => string;

const randomSecret: SecretGenerator = (bytes) => randomBytes(bytes).toString("base64url");

/**
 * Checks the demo chain's SEED_* variables; empty values count as unset.
 * @returns the variables, or one problem line per bad variable
 */
export function parseDemoSeedVariables(env: Record<string, string | undefined>): ConfigResult<DemoSeedVariables> {
  return parseEnvironment(seedSchema, env);
}

/**
 * Seeds the demo chain when the core database has no chain yet (its id is the one the database
 * hands out: not necessarily 1, see demoChainId).
 * @param dbName named in the printed lines
 * @param generate makes the passwords SEED_* does not give (tests pass a fixed one)
 * @param wiring.onSeeded called with the new chain's id right after it is seeded (for example
 *   lib/demo-wiring.ts wireCoreDemo); its lines are printed after the seed's
 * @param wiring.derivedShopperPassword the shopper's password when SEED_SHOPPER_PASSWORD is unset
 *   and the webshop must know it too (derived from SERVICE_SECRET_KEY: printed once, as generated)
 * @returns the lines to print; empty when the database already had a chain
 */
export async function seedCoreDemo(
  db: CoreDb,
  dbName: string,
  seed: DemoSeedVariables,
  generate: SecretGenerator = randomSecret,
  wiring: { onSeeded?: (chainId: number) => Promise<string[]>; derivedShopperPassword?: string } = {},
): Promise<string[]> {
  const adminPassword = seed.SEED_ADMIN_PASSWORD ?? generate(18);
  const shopperPassword = seed.SEED_SHOPPER_PASSWORD ?? wiring.derivedShopperPassword ?? generate(18);
  const seeded = await seedDemoChain(db, {
    adminUsername: seed.SEED_ADMIN_USERNAME,
    adminPassword,
    appHostname: seed.SEED_APP_HOSTNAME,
    shopperUsername: seed.SEED_SHOPPER_USERNAME,
    shopperPassword,
  });
  if (!seeded) return [];
  const wired = wiring.onSeeded ? await wiring.onSeeded(seeded.chainId) : [];
  const shopperLine = seed.SEED_SHOPPER_PASSWORD === undefined && wiring.derivedShopperPassword !== undefined
    ? `${shopperPassword}  (derived from SERVICE_SECRET_KEY: shown only now)`
    : secretLine(seed.SEED_SHOPPER_PASSWORD, "SEED_SHOPPER_PASSWORD", shopperPassword);
  return [
    `demo chain ${seeded.chainId} seeded in ${dbName}:`,
    `  admin username     ${seeded.adminUsername}`,
    `  admin password     ${secretLine(seed.SEED_ADMIN_PASSWORD, "SEED_ADMIN_PASSWORD", adminPassword)}`,
    `  app hostname       ${seeded.appHostname}`,
    `  shopper username   ${seeded.shopperUsername}  (log in with X-Service-App-Hostname: ${seeded.appHostname})`,
    `  shopper password   ${shopperLine}`,
    ...wired,
  ];
}

/**
 * The demo chain's id in the core database: the chain of the demo app hostname
 * (SEED_APP_HOSTNAME), whether it was seeded now or on an earlier start.
 * @returns the id, or undefined when no chain has that app hostname
 */
export async function demoChainId(db: CoreDb, seed: Pick<DemoSeedVariables, "SEED_APP_HOSTNAME">): Promise<number | undefined> {
  return (await findDemoChainId(db, seed.SEED_APP_HOSTNAME)) ?? undefined;
}

/**
 * The demo chain as the webshop knows it: the chain its default website serves (the website the
 * seed created and mapped: seedWebshopDemo).
 * @returns the chain id, or undefined when the default website serves no chain
 */
export async function webshopDemoChainId(db: ConnectorDb): Promise<number | undefined> {
  const [row] = await db.select({ chainId: serviceChainWebsite.serviceChainId }).from(serviceChainWebsite)
    .innerJoin(storeWebsite, eq(storeWebsite.websiteId, serviceChainWebsite.websiteId))
    .where(eq(storeWebsite.isDefault, 1)).orderBy(asc(storeWebsite.websiteId)).limit(1);
  return row ? Number(row.chainId) : undefined;
}

/**
 * The lines naming the demo chain's id, printed on every start: the README's walkthrough reads
 * it from the shell variable CHAIN (the second line is that assignment, to paste).
 */
export function demoChainLines(chainId: number): string[] {
  return [`demo chain id: ${chainId}`, `CHAIN=${chainId}`];
}

/** A token derived from SERVICE_SECRET_KEY (lib/demo-wiring.ts): printed once, as a generated one. */
export interface DerivedToken {
  derived: string;
}

/**
 * Seeds the webshop store for chain `chainId` (undefined: no chain is mapped, the skeleton and
 * token only): the Magento skeleton and mapping (seedConnector),
 * and an integration token: `token` when given (SEED_INTEGRATION_TOKEN, or one derived from
 * SERVICE_SECRET_KEY so the core API's side knows it too), else a generated one, made only when
 * the store has no active token yet.
 * @param dbName named in the printed lines
 * @returns the lines to print; empty when no token was stored
 */
export async function seedWebshopDemo(
  db: ConnectorDb,
  dbName: string,
  chainId: number | undefined,
  token: string | DerivedToken | undefined,
  generate: SecretGenerator = randomSecret,
): Promise<string[]> {
  let generated: string | undefined;
  const given = typeof token === "object" ? token.derived : token;
  const seeded = await seedConnector(db, { chainId, integrationToken: given ?? (() => (generated = generate(24))) });
  if (!seeded?.storedToken) return [];
  const line = typeof token === "object"
    ? `${token.derived}  (derived from SERVICE_SECRET_KEY: shown only now)`
    : secretLine(token, "SEED_INTEGRATION_TOKEN", generated);
  return [
    chainId === undefined ? `webshop store seeded in ${dbName} (its website serves no chain yet: SEED_CHAIN_ID):` : `webshop store seeded in ${dbName} for chain ${chainId}:`,
    `  integration token  ${line}`,
  ];
}

/**
 * Makes the demo shopper a customer of the webshop too (the chain's authentication point checks
 * shopper logins: lib/demo-wiring.ts), through the connector's own update, when the chain's
 * websites have no customer with that email yet.
 * @returns the line to print; empty when the customer existed
 */
export async function seedWebshopShopper(
  db: ConnectorDb,
  chainId: number,
  shopper: { username: string; password: string },
): Promise<string[]> {
  const scope = await resolveChainScope(db, chainId);
  if ((await findCustomersByEmail(db, shopper.username, scope.websiteIds)).length > 0) return [];
  const customer = await updateCustomerFromUserInfo(
    { db, clock: () => new Date() },
    { create_if_not_exists: true, service_chain_id: chainId, user_info: { username: shopper.username, password: shopper.password, first_name: "Demo", last_name: "Shopper" } },
  );
  return [`  webshop customer   ${customer.email} (id ${customer.id}): the demo shopper, same password; logs in through the app via the webshop`];
}

/**
 * Links the demo chain's webshop to the platform (the core API's URL, the identity-source
 * client's access token, the webshop app's hostname: lib/demo-wiring.ts;
 * connector/src/sync/platform-link.ts) when it has no link yet. An existing link is never
 * changed: only `npm run admin -- link-platform` changes one, so starting a service cannot point
 * the sync (customer data, the privileged token) somewhere else.
 * @returns the lines to print (never the token); empty when nothing was written
 */
export async function seedPlatformLinkDemo(
  db: ConnectorDb,
  chainId: number,
  platform: { coreApiUrl: string; accessToken: string; appHostname: string },
  secretKey: string,
): Promise<string[]> {
  const seeded = await seedConnector(db, { chainId, platform: { ...platform, box: await openSecretBox(secretKey) } });
  if (!seeded?.linkedPlatform) return [];
  return [`webshop of chain ${chainId} linked to the platform at ${platform.coreApiUrl} (app ${platform.appHostname})`];
}

function secretLine(given: string | undefined, variable: string, value: string | undefined): string {
  return given !== undefined ? `from ${variable} (not shown)` : `${value}  (generated: shown only now)`;
}
