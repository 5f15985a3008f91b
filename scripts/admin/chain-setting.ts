/**
 * `npm run admin -- chain-setting <chain id> [<name> <value>]`: the chain settings the API does not
 * write (core-api/src/chains/operator-settings.ts declares them: names, values, defaults). With a
 * name and a value it sets one and says what changed; with the chain id alone it lists them all
 * with their values. A refusal is a value (`{ ok: false, reason }`) with nothing written.
 */
import { and, eq } from "drizzle-orm";
import { OPERATOR_CHAIN_SETTINGS, readSettingValue, type OperatorSettingName } from "../../core-api/src/chains/operator-settings.ts";
import type { CoreDb } from "../../core-api/src/db/client.ts";
import { chains } from "../../core-api/src/db/schema.ts";
import type { Refusal } from "./chain-setup.ts";
import { runTransaction } from "@service/shared/node";

type Value = number | boolean;

/** What setting one value did. */
export interface SettingChange {
  name: OperatorSettingName;
  before: Value;
  after: Value;
}

/** The chains column of a setting (checked against the table, so a misspelt declaration cannot write elsewhere). */
function columnOf(name: OperatorSettingName) {
  const key = OPERATOR_CHAIN_SETTINGS[name].column;
  const column = (chains as unknown as Record<string, typeof chains.id | undefined>)[key];
  if (!column) throw new Error(`chain-setting: ${name} names no chains column (${key})`);
  return { key, column };
}

/**
 * Sets setting `name` of the live chain `chainId` to `value` (already read by readSettingValue),
 * under the row's lock; the chain's last_modified_date becomes `now` when the value changes.
 * @returns the value before and after, or a refusal when there is no such live chain
 */
export async function setChainSetting(db: CoreDb, chainId: number, name: OperatorSettingName, value: Value, now: Date): Promise<{ ok: true; change: SettingChange } | Refusal> {
  const { key, column } = columnOf(name);
  return runTransaction(db, async (tx) => {
    const [row] = await tx.select({ value: column }).from(chains).where(and(eq(chains.id, chainId), eq(chains.deleted, false))).for("update");
    if (!row) return { ok: false, reason: `there is no chain ${chainId}` };
    const before = row.value as unknown as Value;
    if (before !== value) await tx.update(chains).set({ [key]: value, lastModifiedDate: now }).where(eq(chains.id, chainId));
    return { ok: true, change: { name, before, after: value } };
  });
}

/**
 * Every setting the API does not write, with its value for the live chain `chainId`.
 * @returns name -> value in declaration order, or a refusal when there is no such live chain
 */
export async function readChainSettings(db: CoreDb, chainId: number): Promise<{ ok: true; values: Array<[OperatorSettingName, Value]> } | Refusal> {
  const names = Object.keys(OPERATOR_CHAIN_SETTINGS) as OperatorSettingName[];
  const selection = Object.fromEntries(names.map((name) => [name, columnOf(name).column]));
  const [row] = await db.select(selection).from(chains).where(and(eq(chains.id, chainId), eq(chains.deleted, false)));
  if (!row) return { ok: false, reason: `there is no chain ${chainId}` };
  return { ok: true, values: names.map((name) => [name, (row as Record<string, unknown>)[name] as Value]) };
}

/** The command's part of `npm run admin -- --help`. */
export const CHAIN_SETTING_USAGE = `  chain-setting <chain id> [<name> <value>]
      Sets one of the chain's settings the API does not write and prints the value it replaced;
      with the chain id alone, lists them with their values. Settings (the phone verification
      counts are per window):
${Object.entries(OPERATOR_CHAIN_SETTINGS).map(([name, s]) => `        ${name}\n            ${s.description}`).join("\n")}`;

/** What the command needs of the admin CLI (scripts/admin/cli.ts): its database, its output and its exit statuses. */
export interface AdminIo {
  withCoreDatabase(work: (db: CoreDb) => Promise<number>): Promise<number>;
  /** prints a line of the command's result (standard output) */
  print(line: string): void;
  /** prints the line, answers exit status 2 */
  usageError(line: string): number;
  /** prints the refusal, answers exit status 1 */
  refused(reason: string): number;
}

/**
 * Runs `chain-setting` with the arguments after the command name.
 * @returns the exit status: 0 done, 1 no such chain, 2 a bad command line, an unknown setting or
 *   a bad value (nothing written)
 */
export async function chainSettingCommand(args: string[], io: AdminIo): Promise<number> {
  const [chainText, name, value, ...more] = args;
  if (chainText === undefined || (name !== undefined && value === undefined) || more.length > 0) {
    return io.usageError("chain-setting takes <chain id> [<name> <value>] (see --help)");
  }
  const chainId = Number(chainText);
  if (!/^\d+$/.test(chainText) || !Number.isSafeInteger(chainId) || chainId <= 0) return io.usageError(`the chain id must be a positive integer (got ${chainText})`);
  if (name === undefined) {
    return io.withCoreDatabase(async (db) => {
      const result = await readChainSettings(db, chainId);
      if (!result.ok) return io.refused(result.reason);
      for (const [setting, current] of result.values) io.print(`${setting} ${current}`);
      return 0;
    });
  }
  const read = readSettingValue(name, value!);
  if (!read.ok) return io.usageError(read.reason);
  return io.withCoreDatabase(async (db) => {
    const result = await setChainSetting(db, chainId, read.name, read.value, new Date());
    if (!result.ok) return io.refused(result.reason);
    const { before, after } = result.change;
    io.print(before === after ? `chain ${chainId}: ${name} is ${after} already` : `chain ${chainId}: ${name} ${before} -> ${after}`);
    return 0;
  });
}

