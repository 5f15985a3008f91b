/**
 * Campaign storage (spec, "Campaign"; its minimal home so that change logs arise). Every write of
 * a campaign goes through here and records its change log entry in the same transaction, so a
 * campaign never changes without its entry, and an entry never outlives a failed change.
 *
 * Campaign datetimes are stored to the second (DATETIME): every time written here is cut to the
 * whole second first, so the row and the diff recorded for it agree.
 */
import type { ChangeDiff } from "@service/shared/resources/change-log";
import { and, eq } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import { campaigns } from "../db/schema.ts";
import { wholeSeconds } from "../db/whole-seconds.ts";
import { ServiceError } from "../http/service-error.ts";
import { deleteCampaignWebhooks } from "./campaign-webhooks.ts";
import { recordChange, type CoreTx } from "./change-log.ts";
import { campaignSnapshot, diffCampaign, diffCampaignDeletion } from "./diff.ts";
import { requireForwardPeriod, type CampaignFields } from "./fields.ts";
import { runTransaction } from "@service/shared/node";

export type CampaignRow = typeof campaigns.$inferSelect;

/** model_class of a campaign's change log entries (spec, "Change log entry"). */
export const CAMPAIGN_MODEL_CLASS = "Campaign";

/** A new campaign's values. */
export interface NewCampaign {
  chainId: number;
  title: string;
  isActive: boolean;
  activeDateFrom: Date | null;
  activeDateUntil: Date | null;
}

/** Who changes a campaign, through which call: recorded as changed_by and change_endpoint. */
export interface ChangeAuthor {
  /** null when a privileged token (no admin) made the change */
  adminId: number | null;
  /** canonical path such as `internal/add-campaign` */
  endpoint: string;
}

/** The live (not deleted) campaign with id `id`, in any chain; null when there is none. */
export async function findLiveCampaign(db: CoreDb, id: number): Promise<CampaignRow | null> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.deleted, false)))
    .limit(1);
  return row ?? null;
}

/**
 * The campaign with id `id`, deleted or not, in any chain; null when there is none. A deleted
 * campaign keeps its row (delete-campaign only marks it), so its change log stays readable.
 */
export async function findCampaignRow(db: CoreDb, id: number): Promise<CampaignRow | null> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  return row ?? null;
}

/**
 * Creates a campaign and records its creation: a change log entry whose diff lists every field
 * that starts with a value (`from: null`).
 * @param now creation time (cut to the second)
 * @returns the stored row
 * @throws ServiceError parameter_invalid (419) when activeDateFrom lies after activeDateUntil; nothing is written then
 */
export async function createCampaign(db: CoreDb, values: NewCampaign, author: ChangeAuthor, now: Date): Promise<CampaignRow> {
  requireForwardPeriod(values.activeDateFrom, values.activeDateUntil);
  const at = wholeSeconds(now);
  return runTransaction(db, async (tx) => {
    const [res] = await tx.insert(campaigns).values({ ...values, lastUpdatedBy: author.adminId, createdDate: at, lastModifiedDate: at });
    const row = await selectCampaign(tx, Number(res.insertId));
    await record(tx, row, author, diffCampaign(null, campaignSnapshot(row)), at);
    return row;
  });
}

/**
 * Applies `fields` to the live campaign `id` and records the change. The campaign row is locked
 * while the diff is taken, so the recorded `from` values are those the change replaced, even
 * under concurrent changes.
 * @param now change time (cut to the second)
 * @returns the row after the call: unchanged, with no entry recorded and nothing written, when
 *   `fields` change nothing; null when no live campaign has the id
 * @throws ServiceError parameter_invalid (419) when the resulting active_date_from lies after the
 *   resulting active_date_until; nothing is written then
 */
export async function alterCampaign(
  db: CoreDb,
  id: number,
  fields: CampaignFields,
  author: ChangeAuthor,
  now: Date,
): Promise<CampaignRow | null> {
  const at = wholeSeconds(now);
  return runTransaction(db, async (tx) => {
    const current = await lockLiveCampaign(tx, id);
    if (!current) return null;
    const next = { ...current, ...definedOnly(fields), lastModifiedDate: at };
    requireForwardPeriod(next.activeDateFrom, next.activeDateUntil);
    const diff = diffCampaign(campaignSnapshot(current), campaignSnapshot(next));
    if (Object.keys(diff).length === 0) return current;
    await tx
      .update(campaigns)
      .set({ ...definedOnly(fields), lastModifiedDate: at, lastUpdatedBy: author.adminId })
      .where(eq(campaigns.id, id));
    const row = await selectCampaign(tx, id);
    await record(tx, row, author, diff, at);
    return row;
  });
}

/**
 * Deletes the live campaign `id` (spec, "Internal call: delete-campaign"): its webhooks go, it
 * becomes inactive and deleted, and the change is recorded (change_endpoint `author.endpoint`;
 * diff: is_active when it was active, deleted, last_updated_date). The row is locked first, so of
 * concurrent deletions exactly one succeeds and whether the campaign is active is decided on the
 * row that is deleted.
 * @param opts.mayDeleteActive false when the caller may delete only inactive campaigns (a chain
 *   with restrict_campaign_enable and a caller without campaign_enable: internal/campaign-access.ts)
 * @param now change time (cut to the second)
 * @returns the row after the call; null when no live campaign has the id (nothing is written)
 * @throws ServiceError permission_denied_or_non_existent (68, 403) when the campaign is active and
 *   `opts.mayDeleteActive` is false; nothing is written then
 */
export async function deleteCampaign(
  db: CoreDb,
  id: number,
  author: ChangeAuthor,
  now: Date,
  opts: { mayDeleteActive: boolean },
): Promise<CampaignRow | null> {
  const at = wholeSeconds(now);
  return runTransaction(db, async (tx) => {
    const current = await lockLiveCampaign(tx, id);
    if (!current) return null;
    if (current.isActive && !opts.mayDeleteActive) throw activeNeedsEnable();
    await deleteCampaignWebhooks(tx, current);
    await tx
      .update(campaigns)
      .set({ isActive: false, deleted: true, lastModifiedDate: at, lastUpdatedBy: author.adminId })
      .where(eq(campaigns.id, id));
    const row = await selectCampaign(tx, id);
    await record(tx, row, author, diffCampaignDeletion(campaignSnapshot(current), campaignSnapshot(row)), at);
    return row;
  });
}

/** The refusal of an active campaign's deletion without campaign_enable where the chain restricts it. */
export function activeNeedsEnable(): ServiceError {
  return new ServiceError(
    "permission_denied_or_non_existent",
    "Deleting an active campaign needs the campaign_enable permission in this chain (restrict_campaign_enable).",
  );
}

/** The live campaign `id`, locked for this transaction's update; undefined when there is none. */
async function lockLiveCampaign(tx: CoreTx, id: number): Promise<CampaignRow | undefined> {
  const [row] = await tx.select().from(campaigns).where(and(eq(campaigns.id, id), eq(campaigns.deleted, false))).for("update");
  return row;
}

async function selectCampaign(tx: CoreTx, id: number): Promise<CampaignRow> {
  const [row] = await tx.select().from(campaigns).where(eq(campaigns.id, id));
  return row!;
}

function record(tx: CoreTx, row: CampaignRow, author: ChangeAuthor, diff: ChangeDiff, at: Date): Promise<number> {
  return recordChange(
    tx,
    { chainId: row.chainId, modelClass: CAMPAIGN_MODEL_CLASS, modelId: row.id, changedBy: author.adminId, changeEndpoint: author.endpoint, diff },
    at,
  );
}

/** `fields` without its undefined keys, so spreading it never overwrites a column with undefined. */
function definedOnly(fields: CampaignFields): CampaignFields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as CampaignFields;
}
