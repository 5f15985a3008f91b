/**
 * `npm run admin -- <command> [options]`: the operator CLI for tenants, so a second chain needs no
 * SQL. Works on the databases of DATABASE_URL / CORE_DB_NAME / WEBSHOP_DB_NAME (migrate them first:
 * `npm run migrate` or `npm start`). Generated passwords are printed once; given ones never.
 * Exit status: 0 done, 1 refused (one line saying why; nothing written), 2 bad command line or
 * configuration.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { ACCESS_LEVELS, type AccessLevel } from "../core-api/src/db/permissions.ts";
import { parseCoreConfig } from "../core-api/src/config.ts";
import { openCoreDatabase, type CoreDb } from "../core-api/src/db/client.ts";
import { chains } from "../core-api/src/db/schema.ts";
import { parseConnectorConfig } from "../connector/src/config.ts";
import { openConnectorDatabase } from "../connector/src/db/client.ts";
import { MIN_SECRET_KEY_LENGTH, openSecretBox } from "@service/shared/secret-box";
import { clearChainAuthenticationPoint, setChainAuthenticationPoint } from "./admin/authentication-point-setup.ts";
import { addChainAdmin, createTenantChain } from "./admin/chain-setup.ts";
import { mapWebsiteToChain } from "./admin/website-mapping.ts";
import { CHAIN_SETTING_USAGE, chainSettingCommand } from "./admin/chain-setting.ts";
import { SET_PASSWORD_USAGE, setPasswordCommand } from "./admin/admin-password.ts";
import { linkPlatform, PlatformLinkError } from "../connector/src/sync/platform-link.ts";
import { SECRET_KEY_MISSING } from "@service/shared/node";
import { parseCommandLine } from "./lib/command-line.ts";
import { withSecretKeyFile } from "./lib/secret-key-file.ts";
import { waitForDatabase } from "./lib/wait-for-database.ts";

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create-chain  --name <name> --admin-username <username> [--admin-password <password>]
                [--app-hostname <hostname>]...
      Creates a chain with its first super-user admin (an existing admin keeps their password and
      gets super-user access) and its app hostnames (X-Service-App-Hostname of its shoppers).
  add-admin     --chain-id <id> --username <username> [--password <password>]
                [--access <level,level,...>]
      Gives an admin access to a chain (default access: read), creating the admin when new.
      With --password, the admin must be new (an existing one is refused: use set-password).
${SET_PASSWORD_USAGE}
      Levels: ${ACCESS_LEVELS.join(", ")}.
  map-website   --chain-id <id> --website-code <code> [--website-name <name>]
      Serves the chain from a webshop website of the connector's store, creating the website (with
      a store group and a store view) when it does not exist.
  set-authentication-point  --chain-id <id> --base-url <url> --integration-token <token>
      Makes the webshop connector at <url> the chain's authentication point: shoppers logging in
      through the chain's apps are checked by its authenticate, and members are linked to its
      customers. The integration token is the bearer token the connector accepts; it is stored
      encrypted under SERVICE_SECRET_KEY. Also makes sure the chain has an
      identity-source service client; when it is created, its access token is printed once (the
      connector calls the core API with it).
  clear-authentication-point  --chain-id <id>
      Removes the chain's authentication point: its shoppers log in with the platform's passwords.

  link-platform --chain-id <id> --core-api-url <url> --access-token <id:secret>
                --app-hostname <hostname>
      Links the chain's webshop to the platform for the sync (npm run sync, SYNC_CRON): the core
      API's base URL, a privileged access token (scope chain:<id>) of the chain's identity-source
      service client, stored encrypted under SERVICE_SECRET_KEY, and the hostname of the chain's
      webshop app. Linking again replaces them. The chain must be served by a website first
      (map-website).

${CHAIN_SETTING_USAGE}

A password not given is generated and printed once. Environment: DATABASE_URL, CORE_DB_NAME,
WEBSHOP_DB_NAME, DATABASE_WAIT_SECONDS, SERVICE_SECRET_KEY (set-authentication-point, link-platform; default: the
.secret-key npm start keeps).

Options:
  -h, --help  print this text and exit; nothing is touched`;

const OPTIONS = {
  name: { type: "string" },
  "admin-username": { type: "string" },
  "admin-password": { type: "string" },
  "app-hostname": { type: "string", multiple: true },
  "chain-id": { type: "string" },
  username: { type: "string" },
  password: { type: "string" },
  access: { type: "string" },
  "website-code": { type: "string" },
  "website-name": { type: "string" },
  "base-url": { type: "string" },
  "integration-token": { type: "string" },
  "core-api-url": { type: "string" },
  "access-token": { type: "string" },
} as const;

type Values = Partial<Record<keyof typeof OPTIONS, string | string[]>>;

const COMMANDS = ["create-chain", "add-admin", "set-password", "map-website", "set-authentication-point", "clear-authentication-point", "link-platform", "chain-setting"];

/** Exit statuses (module comment). */
const REFUSED = 1;
const USAGE_ERROR = 2;

async function main(): Promise<number> {
  const { values, positionals } = parseCommandLine(USAGE, OPTIONS, process.argv.slice(2), true);
  const [command, ...extra] = positionals;
  if (!command) return usageError(`give a command: ${COMMANDS.join(", ")}`);
  if (command === "chain-setting") return chainSettingCommand(extra, { withCoreDatabase, usageError, refused });
  if (extra.length > 0) return usageError(`unexpected argument: ${extra[0]}`);
  switch (command) {
    case "create-chain": return createChainCommand(values);
    case "add-admin": return addAdminCommand(values);
    case "set-password": return setPasswordCommand({ username: optionalString(values, "username"), password: optionalString(values, "password") }, { withCoreDatabase, usageError, refused });
    case "map-website": return mapWebsiteCommand(values);
    case "set-authentication-point": return setAuthenticationPointCommand(values);
    case "clear-authentication-point": return clearAuthenticationPointCommand(values);
    case "link-platform": return linkPlatformCommand(values);
    default: return usageError(`unknown command: ${command}`);
  }
}

async function createChainCommand(values: Values): Promise<number> {
  const name = required(values, "name");
  const username = required(values, "admin-username");
  if (name === undefined || username === undefined) return USAGE_ERROR;
  const password = optionalString(values, "admin-password");
  const generated = password ?? newPassword();
  return withCoreDatabase(async (db) => {
    const result = await createTenantChain(db, {
      name,
      admin: { username, password: generated },
      hostnames: (values["app-hostname"] as string[] | undefined) ?? [],
    });
    if (!result.ok) return refused(result.reason);
    const { setup } = result;
    console.log(`chain ${setup.chainId} created: ${name}`);
    console.log(`  super-user admin  ${username} (id ${setup.adminId}${setup.adminCreated ? "" : ", existing: password unchanged"})`);
    if (setup.adminCreated && password === undefined) console.log(`  admin password    ${generated}  (generated: shown only now)`);
    for (const hostname of (values["app-hostname"] as string[] | undefined) ?? []) console.log(`  app hostname      ${hostname.trim().toLowerCase()}`);
    return 0;
  });
}

async function addAdminCommand(values: Values): Promise<number> {
  const chainId = chainIdOf(values);
  const username = required(values, "username");
  if (chainId === undefined || username === undefined) return USAGE_ERROR;
  const levels = (optionalString(values, "access") ?? "read").split(",").map((l) => l.trim()).filter(Boolean);
  const unknown = levels.find((l) => !(ACCESS_LEVELS as readonly string[]).includes(l));
  if (unknown !== undefined) return usageError(`unknown access level ${unknown} (levels: ${ACCESS_LEVELS.join(", ")})`);
  const password = optionalString(values, "password");
  const generated = password ?? newPassword();
  return withCoreDatabase(async (db) => {
    const result = await addChainAdmin(db, { chainId, admin: { username, password: generated }, levels: levels as AccessLevel[], passwordGiven: password !== undefined });
    if (!result.ok) return refused(result.reason);
    console.log(`admin ${username} (id ${result.adminId}${result.adminCreated ? ", new" : ""}) has ${levels.join(", ")} on chain ${chainId}`);
    if (result.adminCreated && password === undefined) console.log(`  admin password  ${generated}  (generated: shown only now)`);
    return 0;
  });
}

async function mapWebsiteCommand(values: Values): Promise<number> {
  const chainId = chainIdOf(values);
  const websiteCode = required(values, "website-code");
  if (chainId === undefined || websiteCode === undefined) return USAGE_ERROR;
  const config = connectorConfig();
  // The chain must exist in the core: a typo would otherwise point a shop at nobody.
  const chainKnown = await withCoreDatabase(async (db) => {
    const [row] = await db.select({ id: chains.id }).from(chains).where(and(eq(chains.id, chainId), eq(chains.deleted, false)));
    return row ? 0 : refused(`there is no chain ${chainId}`);
  });
  if (chainKnown !== 0) return chainKnown;
  const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    const result = await mapWebsiteToChain(database.db, { chainId, websiteCode, websiteName: optionalString(values, "website-name") });
    if (!result.ok) return refused(result.reason);
    const { mapping } = result;
    console.log(`website ${websiteCode} (id ${mapping.websiteId}${mapping.createdWebsite ? ", created with its store group and store view" : ""}) ` +
      (mapping.mapped ? `now serves chain ${chainId}` : `already served chain ${chainId}`));
    return 0;
  } finally {
    await database.close();
  }
}

async function setAuthenticationPointCommand(values: Values): Promise<number> {
  const chainId = chainIdOf(values);
  const baseUrl = required(values, "base-url");
  const integrationToken = required(values, "integration-token");
  if (chainId === undefined || baseUrl === undefined || integrationToken === undefined) return USAGE_ERROR;
  const secretKey = withSecretKeyFile(process.env).SERVICE_SECRET_KEY;
  if (!secretKey) return configError(["SERVICE_SECRET_KEY: must be set (the integration token is stored encrypted under it; npm start keeps one in .secret-key)"]);
  const box = await openSecretBox(secretKey).catch(() => undefined);
  if (!box) return configError([`SERVICE_SECRET_KEY: must be at least ${MIN_SECRET_KEY_LENGTH} characters`]);
  return withCoreDatabase(async (db) => {
    const result = await setChainAuthenticationPoint(db, box, { chainId, baseUrl, integrationToken });
    if (!result.ok) return refused(result.reason);
    const { setup } = result;
    console.log(`chain ${chainId}: authentication point ${setup.created ? "set" : "replaced"}: webshop ${setup.baseUrl}`);
    console.log(`  identity-source client  ${setup.identityClient.name} (id ${setup.identityClient.id}${setup.identityClient.created ? ", created" : ", existing"})`);
    if (setup.token) {
      console.log(`  access token            ${setup.token.id}:${setup.token.secret}  (generated: shown only now; the connector calls the core API with it)`);
    }
    return 0;
  });
}

async function clearAuthenticationPointCommand(values: Values): Promise<number> {
  const chainId = chainIdOf(values);
  if (chainId === undefined) return USAGE_ERROR;
  return withCoreDatabase(async (db) => {
    const result = await clearChainAuthenticationPoint(db, chainId);
    if (!result.ok) return refused(result.reason);
    console.log(`chain ${chainId}: authentication point removed; its shoppers log in with the platform's passwords`);
    return 0;
  });
}

async function linkPlatformCommand(values: Values): Promise<number> {
  const chainId = chainIdOf(values);
  const coreApiUrl = required(values, "core-api-url");
  const accessToken = required(values, "access-token");
  const hostnames = (values["app-hostname"] as string[] | undefined) ?? [];
  if (chainId === undefined || coreApiUrl === undefined || accessToken === undefined) return USAGE_ERROR;
  if (hostnames.length !== 1) return usageError("--app-hostname is required once: the chain's webshop app (see --help)");
  const config = connectorConfig();
  const secretKey = config.secretKey;
  if (!secretKey) return usageError(SECRET_KEY_MISSING);
  const box = await openSecretBox(secretKey);
  await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs });
  const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
  try {
    const { created } = await linkPlatform(database.db, box, { chainId, coreApiUrl, accessToken, appHostname: hostnames[0]! });
    console.log(`chain ${chainId} ${created ? "linked" : "linked again"}: core API ${coreApiUrl.trim().replace(/\/+$/, "")}, app ${hostnames[0]!.trim().toLowerCase()} (token stored encrypted)`);
    return 0;
  } catch (err) {
    if (err instanceof PlatformLinkError) return refused(err.message);
    throw err;
  } finally {
    await database.close();
  }
}

/** Runs `work` on the core database (configuration checked, server waited for), closing it after. */
async function withCoreDatabase(work: (db: CoreDb) => Promise<number>): Promise<number> {
  const parsed = parseCoreConfig(process.env);
  if (!parsed.ok) return configError(parsed.problems);
  await waitForDatabase(parsed.config.databaseUrl, { limitMs: parsed.config.databaseWaitMs });
  const database = openCoreDatabase(parsed.config.databaseUrl, parsed.config.dbName, { connectionLimit: 1 });
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

function connectorConfig() {
  const parsed = parseConnectorConfig(withSecretKeyFile(process.env));
  if (!parsed.ok) process.exit(configError(parsed.problems));
  return parsed.config;
}

function chainIdOf(values: Values): number | undefined {
  const raw = required(values, "chain-id");
  if (raw === undefined) return undefined;
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) {
    usageError(`--chain-id must be a positive integer (got ${raw})`);
    return undefined;
  }
  return id;
}

function required(values: Values, name: keyof typeof OPTIONS): string | undefined {
  const v = optionalString(values, name);
  if (v === undefined || v.trim() === "") usageError(`--${name} is required (see --help)`);
  return v === undefined || v.trim() === "" ? undefined : v;
}

function optionalString(values: Values, name: keyof typeof OPTIONS): string | undefined {
  return typeof values[name] === "string" ? values[name] : undefined;
}

const newPassword = (): string => randomBytes(18).toString("base64url");

function usageError(line: string): number {
  console.error(line);
  return USAGE_ERROR;
}

function configError(problems: string[]): number {
  for (const line of problems) console.error(line);
  return USAGE_ERROR;
}

function refused(reason: string): number {
  console.error(`refused: ${reason}`);
  return REFUSED;
}

main().then(
  (status) => process.exit(status),
  (err: Error) => {
    console.error(err.name === "DatabaseUnavailableError" ? err.message : err.stack);
    process.exit(1);
  },
);
