/**
 * The operator CLI for tenants (`npm run admin`, scripts/admin.ts): `runAdmin` runs one command
 * line against the databases its environment names and answers the exit status, printing
 * through the output it is given, so the entry and the tests run the same code. Generated
 * passwords are printed once; given ones never. Exit status: 0 done, 1 refused (one line saying
 * why; nothing written), 2 bad command line or configuration.
 */
import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { ACCESS_LEVELS, type AccessLevel } from "../../core-api/src/db/permissions.ts";
import { parseCoreConfig } from "../../core-api/src/config.ts";
import { openCoreDatabase, type CoreDb } from "../../core-api/src/db/client.ts";
import { chains } from "../../core-api/src/db/schema.ts";
import { parseConnectorConfig } from "../../connector/src/config.ts";
import { openConnectorDatabase } from "../../connector/src/db/client.ts";
import { linkPlatform, PlatformLinkError } from "../../connector/src/sync/platform-link.ts";
import { MIN_SECRET_KEY_LENGTH, openSecretBox } from "@service/shared/secret-box";
import { SECRET_KEY_MISSING } from "@service/shared/node";
import { readCommandLine } from "../lib/command-line.ts";
import { withSecretKeyFile } from "../lib/secret-key-file.ts";
import { waitForDatabase } from "../lib/wait-for-database.ts";
import { clearChainAuthenticationPoint, setChainAuthenticationPoint } from "./authentication-point-setup.ts";
import { addChainAdmin, createTenantChain } from "./chain-setup.ts";
import { chainSettingCommand, type AdminIo } from "./chain-setting.ts";
import { setPasswordCommand } from "./admin-password.ts";
import { mapWebsiteToChain } from "./website-mapping.ts";
import { COMMANDS, OPTIONS, USAGE, type Values } from "./usage.ts";

/** Where a run prints: its standard output and its standard error, a line at a time. */
export interface AdminOutput {
  print(line: string): void;
  printError(line: string): void;
}

/** Exit statuses (module comment). */
const REFUSED = 1;
const USAGE_ERROR = 2;

/**
 * Runs one command line of the admin CLI.
 * @param argv the arguments after the script's name, e.g. `["add-admin", "--chain-id", "2", ...]`
 * @param env the environment: DATABASE_URL, CORE_DB_NAME, WEBSHOP_DB_NAME, DATABASE_WAIT_SECONDS,
 *   SERVICE_SECRET_KEY (or SERVICE_SECRET_KEY_FILE, default the .secret-key npm start keeps)
 * @param output where the result's lines (print) and the errors and refusals (printError) go
 * @returns the exit status (module comment); --help prints the usage and answers 0
 * @throws the database's error when it fails under a command (the entry prints it, status 1)
 */
export async function runAdmin(argv: string[], env: Record<string, string | undefined>, output: AdminOutput): Promise<number> {
  const line = readCommandLine(OPTIONS, argv, true);
  const cli = new AdminCli(env, output);
  if (line.help) {
    output.print(USAGE);
    return 0;
  }
  if (line.error !== undefined) return cli.usageError(line.error);
  return cli.run(line.values as Values, line.positionals);
}

/** One run of the CLI: its environment and output, and the commands. */
class AdminCli implements AdminIo {
  private readonly env: Record<string, string | undefined>;
  private readonly output: AdminOutput;

  constructor(env: Record<string, string | undefined>, output: AdminOutput) {
    this.env = env;
    this.output = output;
  }

  /**
   * Runs the command the positionals name with the options given.
   * @returns the exit status (module comment)
   */
  async run(values: Values, positionals: string[]): Promise<number> {
    const [command, ...extra] = positionals;
    if (!command) return this.usageError(`give a command: ${COMMANDS.join(", ")}`);
    if (command === "chain-setting") return chainSettingCommand(extra, this);
    if (extra.length > 0) return this.usageError(`unexpected argument: ${extra[0]}`);
    switch (command) {
      case "create-chain": return this.createChain(values);
      case "add-admin": return this.addAdmin(values);
      case "set-password": return setPasswordCommand({ username: optionalString(values, "username"), password: optionalString(values, "password") }, this);
      case "map-website": return this.mapWebsite(values);
      case "set-authentication-point": return this.setAuthenticationPoint(values);
      case "clear-authentication-point": return this.clearAuthenticationPoint(values);
      case "link-platform": return this.linkPlatform(values);
      default: return this.usageError(`unknown command: ${command}`);
    }
  }

  private async createChain(values: Values): Promise<number> {
    const name = this.required(values, "name");
    const username = this.required(values, "admin-username");
    if (name === undefined || username === undefined) return USAGE_ERROR;
    const password = optionalString(values, "admin-password");
    const generated = password ?? newPassword();
    const hostnames = (values["app-hostname"] as string[] | undefined) ?? [];
    return this.withCoreDatabase(async (db) => {
      const result = await createTenantChain(db, { name, admin: { username, password: generated }, hostnames });
      if (!result.ok) return this.refused(result.reason);
      const { setup } = result;
      this.print(`chain ${setup.chainId} created: ${name}`);
      this.print(`  super-user admin  ${username} (id ${setup.adminId}${setup.adminCreated ? "" : ", existing: password unchanged"})`);
      if (setup.adminCreated && password === undefined) this.print(`  admin password    ${generated}  (generated: shown only now)`);
      for (const hostname of hostnames) this.print(`  app hostname      ${hostname.trim().toLowerCase()}`);
      return 0;
    });
  }

  private async addAdmin(values: Values): Promise<number> {
    const chainId = this.chainIdOf(values);
    const username = this.required(values, "username");
    if (chainId === undefined || username === undefined) return USAGE_ERROR;
    const levels = (optionalString(values, "access") ?? "read").split(",").map((l) => l.trim()).filter(Boolean);
    const unknown = levels.find((l) => !(ACCESS_LEVELS as readonly string[]).includes(l));
    if (unknown !== undefined) return this.usageError(`unknown access level ${unknown} (levels: ${ACCESS_LEVELS.join(", ")})`);
    const password = optionalString(values, "password");
    const generated = password ?? newPassword();
    return this.withCoreDatabase(async (db) => {
      const result = await addChainAdmin(db, { chainId, admin: { username, password: generated }, levels: levels as AccessLevel[], passwordGiven: password !== undefined });
      if (!result.ok) return this.refused(result.reason);
      this.print(`admin ${username} (id ${result.adminId}${result.adminCreated ? ", new" : ""}) has ${levels.join(", ")} on chain ${chainId}`);
      if (result.adminCreated && password === undefined) this.print(`  admin password  ${generated}  (generated: shown only now)`);
      return 0;
    });
  }

  private async mapWebsite(values: Values): Promise<number> {
    const chainId = this.chainIdOf(values);
    const websiteCode = this.required(values, "website-code");
    if (chainId === undefined || websiteCode === undefined) return USAGE_ERROR;
    const config = this.connectorConfig();
    if (typeof config === "number") return config;
    // The chain must exist in the core: a typo would otherwise point a shop at nobody.
    const chainKnown = await this.withCoreDatabase(async (db) => {
      const [row] = await db.select({ id: chains.id }).from(chains).where(and(eq(chains.id, chainId), eq(chains.deleted, false)));
      return row ? 0 : this.refused(`there is no chain ${chainId}`);
    });
    if (chainKnown !== 0) return chainKnown;
    const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
    try {
      const result = await mapWebsiteToChain(database.db, { chainId, websiteCode, websiteName: optionalString(values, "website-name") });
      if (!result.ok) return this.refused(result.reason);
      const { mapping } = result;
      this.print(`website ${websiteCode} (id ${mapping.websiteId}${mapping.createdWebsite ? ", created with its store group and store view" : ""}) ` +
        (mapping.mapped ? `now serves chain ${chainId}` : `already served chain ${chainId}`));
      return 0;
    } finally {
      await database.close();
    }
  }

  private async setAuthenticationPoint(values: Values): Promise<number> {
    const chainId = this.chainIdOf(values);
    const baseUrl = this.required(values, "base-url");
    const integrationToken = this.required(values, "integration-token");
    if (chainId === undefined || baseUrl === undefined || integrationToken === undefined) return USAGE_ERROR;
    const secretKey = withSecretKeyFile(this.env).SERVICE_SECRET_KEY;
    if (!secretKey) return this.configError(["SERVICE_SECRET_KEY: must be set (the integration token is stored encrypted under it; npm start keeps one in .secret-key)"]);
    const box = await openSecretBox(secretKey).catch(() => undefined);
    if (!box) return this.configError([`SERVICE_SECRET_KEY: must be at least ${MIN_SECRET_KEY_LENGTH} characters`]);
    return this.withCoreDatabase(async (db) => {
      const result = await setChainAuthenticationPoint(db, box, { chainId, baseUrl, integrationToken });
      if (!result.ok) return this.refused(result.reason);
      const { setup } = result;
      this.print(`chain ${chainId}: authentication point ${setup.created ? "set" : "replaced"}: webshop ${setup.baseUrl}`);
      this.print(`  identity-source client  ${setup.identityClient.name} (id ${setup.identityClient.id}${setup.identityClient.created ? ", created" : ", existing"})`);
      if (setup.token) {
        this.print(`  access token            ${setup.token.id}:${setup.token.secret}  (generated: shown only now; the connector calls the core API with it)`);
      }
      return 0;
    });
  }

  private async clearAuthenticationPoint(values: Values): Promise<number> {
    const chainId = this.chainIdOf(values);
    if (chainId === undefined) return USAGE_ERROR;
    return this.withCoreDatabase(async (db) => {
      const result = await clearChainAuthenticationPoint(db, chainId);
      if (!result.ok) return this.refused(result.reason);
      this.print(`chain ${chainId}: authentication point removed; its shoppers log in with the platform's passwords`);
      return 0;
    });
  }

  private async linkPlatform(values: Values): Promise<number> {
    const chainId = this.chainIdOf(values);
    const coreApiUrl = this.required(values, "core-api-url");
    const accessToken = this.required(values, "access-token");
    const hostnames = (values["app-hostname"] as string[] | undefined) ?? [];
    if (chainId === undefined || coreApiUrl === undefined || accessToken === undefined) return USAGE_ERROR;
    if (hostnames.length !== 1) return this.usageError("--app-hostname is required once: the chain's webshop app (see --help)");
    const config = this.connectorConfig();
    if (typeof config === "number") return config;
    if (!config.secretKey) return this.usageError(SECRET_KEY_MISSING);
    const box = await openSecretBox(config.secretKey);
    await waitForDatabase(config.databaseUrl, { limitMs: config.databaseWaitMs });
    const database = openConnectorDatabase(config.databaseUrl, config.dbName, { connectionLimit: 1 });
    try {
      const { created } = await linkPlatform(database.db, box, { chainId, coreApiUrl, accessToken, appHostname: hostnames[0]! });
      this.print(`chain ${chainId} ${created ? "linked" : "linked again"}: core API ${coreApiUrl.trim().replace(/\/+$/, "")}, app ${hostnames[0]!.trim().toLowerCase()} (token stored encrypted)`);
      return 0;
    } catch (err) {
      if (err instanceof PlatformLinkError) return this.refused(err.message);
      throw err;
    } finally {
      await database.close();
    }
  }

  /** Runs `work` on the core database (configuration checked, server waited for), closing it after. */
  async withCoreDatabase(work: (db: CoreDb) => Promise<number>): Promise<number> {
    const parsed = parseCoreConfig(this.env);
    if (!parsed.ok) return this.configError(parsed.problems);
    await waitForDatabase(parsed.config.databaseUrl, { limitMs: parsed.config.databaseWaitMs });
    const database = openCoreDatabase(parsed.config.databaseUrl, parsed.config.dbName, { connectionLimit: 1 });
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  }

  /** The connector's configuration, or the exit status 2 after saying what is wrong with it. */
  private connectorConfig() {
    const parsed = parseConnectorConfig(withSecretKeyFile(this.env));
    return parsed.ok ? parsed.config : this.configError(parsed.problems);
  }

  private chainIdOf(values: Values): number | undefined {
    const raw = this.required(values, "chain-id");
    if (raw === undefined) return undefined;
    const id = Number(raw);
    if (!Number.isInteger(id) || id <= 0) {
      this.usageError(`--chain-id must be a positive integer (got ${raw})`);
      return undefined;
    }
    return id;
  }

  private required(values: Values, name: keyof typeof OPTIONS): string | undefined {
    const v = optionalString(values, name);
    if (v === undefined || v.trim() === "") {
      this.usageError(`--${name} is required (see --help)`);
      return undefined;
    }
    return v;
  }

  /** Prints a line of the command's result (standard output). */
  print(line: string): void {
    this.output.print(line);
  }

  /** Prints what is wrong with the command line (standard error) and answers exit status 2. */
  usageError(line: string): number {
    this.output.printError(line);
    return USAGE_ERROR;
  }

  /** Prints each problem of the configuration (standard error) and answers exit status 2. */
  private configError(problems: string[]): number {
    for (const line of problems) this.output.printError(line);
    return USAGE_ERROR;
  }

  /** Prints why nothing was done (standard error, `refused: ...`) and answers exit status 1. */
  refused(reason: string): number {
    this.output.printError(`refused: ${reason}`);
    return REFUSED;
  }
}

function optionalString(values: Values, name: keyof typeof OPTIONS): string | undefined {
  return typeof values[name] === "string" ? values[name] : undefined;
}

const newPassword = (): string => randomBytes(18).toString("base64url");
