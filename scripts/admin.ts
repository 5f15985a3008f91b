/**
 * `npm run admin -- <command> [options]`: the operator CLI for tenants, so a second chain needs no
 * SQL (scripts/admin/cli.ts runs the commands). Works on the databases of DATABASE_URL /
 * CORE_DB_NAME / WEBSHOP_DB_NAME (migrate them first: `npm run migrate` or `npm start`).
 * Generated passwords are printed once; given ones never.
 * Exit status: 0 done, 1 refused (one line saying why; nothing written), 2 bad command line or
 * configuration; 1 also when the database fails (its message, or the stack of anything else).
 */
import { runAdmin } from "./admin/cli.ts";

runAdmin(process.argv.slice(2), process.env, { print: (line) => console.log(line), printError: (line) => console.error(line) }).then(
  (status) => process.exit(status),
  (err: Error) => {
    console.error(err.name === "DatabaseUnavailableError" ? err.message : err.stack);
    process.exit(1);
  },
);
