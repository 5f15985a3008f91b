/**
 * The admin CLI run in the test's process: scripts/admin/cli.ts `runAdmin`, the code
 * `npm run admin` runs, with the environment given and its output collected. A run costs no
 * process start (about 2-3 s of loading on a slow machine); test/admin-cli.test.ts still runs the
 * real script for the exit statuses and output of the entry itself.
 */
import { runAdmin } from "../../scripts/admin/cli.ts";
import type { Finished } from "./processes.ts";

/**
 * Runs `npm run admin -- ...args` in this process.
 * @param env the environment the CLI reads (DATABASE_URL, CORE_DB_NAME, ...; scriptEnv builds one)
 * @returns the exit status and what it printed to standard output and standard error
 * @throws what the CLI throws when the database fails (the entry prints it and exits 1)
 */
export async function runAdminInProcess(args: string[], env: Record<string, string>): Promise<Pick<Finished, "code" | "stdout" | "stderr">> {
  let stdout = "";
  let stderr = "";
  const code = await runAdmin(args, env, { print: (line) => (stdout += `${line}\n`), printError: (line) => (stderr += `${line}\n`) });
  return { code, stdout, stderr };
}
