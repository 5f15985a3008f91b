/**
 * The admin CLI's command line (scripts/admin/cli.ts): its usage text, its options and its
 * commands.
 */
import { ACCESS_LEVELS } from "../../core-api/src/db/permissions.ts";
import { CHAIN_SETTING_USAGE } from "./chain-setting.ts";
import { SET_PASSWORD_USAGE } from "./admin-password.ts";

/** What `npm run admin -- --help` prints. */
export const USAGE = `Usage: npm run admin -- <command> [options]

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

/** The options of every command (node:util parseArgs). */
export const OPTIONS = {
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

/** The options given, by name. */
export type Values = Partial<Record<keyof typeof OPTIONS, string | string[]>>;

/** The commands, as the usage lists them. */
export const COMMANDS = ["create-chain", "add-admin", "set-password", "map-website", "set-authentication-point", "clear-authentication-point", "link-platform", "chain-setting"];
