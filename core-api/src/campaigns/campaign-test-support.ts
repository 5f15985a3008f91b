/**
 * Row checks shared by the campaign and change log tests: what is stored, read straight from the
 * database so a test sees writes (or their absence) rather than the API's own account of them.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { TestCore } from "../../../test/helpers/core.ts";
import { campaigns, modelChangeLogs } from "../db/schema.ts";

/** Number of campaign rows and of change log rows, over all chains. */
export async function countRows(core: TestCore): Promise<{ campaigns: number; changeLogs: number }> {
  const [rows] = (await core.db.execute(
    sql`SELECT (SELECT COUNT(*) FROM campaigns) AS c, (SELECT COUNT(*) FROM model_change_logs) AS l`,
  )) as unknown as [Array<{ c: number; l: number }>];
  return { campaigns: Number(rows[0]!.c), changeLogs: Number(rows[0]!.l) };
}

/** The stored row of campaign `id`. */
export async function campaignRow(core: TestCore, id: number) {
  const [row] = await core.db.select().from(campaigns).where(eq(campaigns.id, id));
  return row;
}

/** The change log rows of campaign `id`, oldest first, with the diff parsed. */
export async function changeLogRows(core: TestCore, id: number) {
  const rows = await core.db.select().from(modelChangeLogs).where(eq(modelChangeLogs.modelId, id)).orderBy(asc(modelChangeLogs.id));
  return rows.map((r) => ({ ...r, diff: JSON.parse(r.diff) as Record<string, { from: unknown; to: unknown }> }));
}
