/**
 * Storage of webhook configurations (resource `webhook`; handbook, "Events"). Every query is
 * confined to one chain. The signing secret and the provider settings are sealed with the secret
 * box before they are stored (purposes `webhook.secret` and `webhook.provider_settings`) and
 * opened only by the outbox when it sends (webhooks/webhook-destination.ts).
 *
 * A webhook's campaign must be a live campaign of the chain: the write reads it locked (FOR
 * UPDATE, as delete-campaign does), so a campaign deleted at the same moment either takes the new
 * webhook with it or the write finds it gone (419).
 */
import type { ProviderSettings } from "@service/shared/resources/webhook";
import type { SecretBox } from "@service/shared/secret-box";
import { and, eq, isNull } from "drizzle-orm";
import type { CoreDb } from "../db/client.ts";
import type { ListRequest } from "../db/resource-columns.ts";
import { findRow, listRows } from "../db/resource-rows.ts";
import { campaigns, webhooks } from "../db/schema.ts";
import { ServiceError } from "../http/service-error.ts";
import { webhookColumns, type WebhookRow } from "./webhook-columns.ts";
import { runStatement, runTransaction } from "@service/shared/node";

export type { WebhookRow };

/** The purpose the signing secret is sealed for. */
export const SECRET_PURPOSE = "webhook.secret";
/** The purpose the provider settings are sealed for. */
export const PROVIDER_SETTINGS_PURPOSE = "webhook.provider_settings";

type CoreTx = Parameters<Parameters<CoreDb["transaction"]>[0]>[0];

/** A webhook's plain columns (what the record shows). */
export interface WebhookFields {
  campaignId: number | null;
  eventType: string;
  targetUrl: string;
  active: boolean;
}

/** The write-only values of a write; undefined leaves the stored one. */
export interface WebhookSecrets {
  signingSecret?: string;
  /** null removes them */
  providerSettings?: ProviderSettings | null;
}

/** The secrets of a stored webhook, opened. */
export interface OpenedWebhookSecrets {
  signingSecret: string;
  providerSettings: ProviderSettings | null;
}

/**
 * Creates a webhook of chain `chainId`.
 * @throws ServiceError parameter_invalid (419) when the campaign is not a live campaign of the chain
 */
export async function insertWebhook(
  db: CoreDb,
  box: SecretBox,
  chainId: number,
  fields: WebhookFields,
  secrets: Required<Pick<WebhookSecrets, "signingSecret">> & WebhookSecrets,
  lastUpdatedBy: number | null,
  now: Date,
): Promise<WebhookRow> {
  const sealed = await seal(box, secrets);
  const id = await runTransaction(db, async (tx) => {
    await requireLiveCampaign(tx, chainId, fields.campaignId);
    const [res] = await tx.insert(webhooks).values({
      chainId, ...fields, signingSecret: sealed.signingSecret!, providerSettings: sealed.providerSettings ?? null, lastUpdatedBy, createdDate: now, lastModifiedDate: now,
    });
    return Number(res.insertId);
  });
  return (await findWebhook(db, chainId, id))!;
}

/**
 * Changes the live webhook `id` of chain `chainId`; fields left undefined stay.
 * @returns the row afterwards, or null when the chain has no such live webhook
 * @throws ServiceError parameter_invalid (419) as insertWebhook
 */
export async function updateWebhook(
  db: CoreDb,
  box: SecretBox,
  chainId: number,
  id: number,
  fields: Partial<WebhookFields>,
  secrets: WebhookSecrets,
  lastUpdatedBy: number | null,
  now: Date,
): Promise<WebhookRow | null> {
  const sealed = await seal(box, secrets);
  const found = await runTransaction(db, async (tx) => {
    if (fields.campaignId !== undefined) await requireLiveCampaign(tx, chainId, fields.campaignId);
    const [res] = await tx
      .update(webhooks)
      .set({ ...fields, ...sealed, lastUpdatedBy, lastModifiedDate: now })
      .where(and(eq(webhooks.id, id), eq(webhooks.chainId, chainId), eq(webhooks.deleted, false)));
    return res.affectedRows > 0;
  });
  return found ? findWebhook(db, chainId, id) : null;
}

/**
 * Soft-deletes the live webhook `id` of chain `chainId`: it receives nothing from now on.
 * @returns the deleted row, or null when the chain has no such live webhook
 */
export async function deleteWebhook(db: CoreDb, chainId: number, id: number, deletedBy: number | null, now: Date): Promise<WebhookRow | null> {
  const [res] = await runStatement(() => db
    .update(webhooks)
    .set({ deleted: true, active: false, lastUpdatedBy: deletedBy, lastModifiedDate: now })
    .where(and(eq(webhooks.id, id), eq(webhooks.chainId, chainId), eq(webhooks.deleted, false))));
  return res.affectedRows > 0 ? findWebhook(db, chainId, id, { includeDeleted: true }) : null;
}

/** The live webhook `id` of chain `chainId` (or, with includeDeleted, a deleted one); null when none. */
export async function findWebhook(db: CoreDb | CoreTx, chainId: number, id: number, opts: { includeDeleted?: boolean } = {}): Promise<WebhookRow | null> {
  const live = opts.includeDeleted ? undefined : eq(webhooks.deleted, false);
  return findRow(db as CoreDb, webhookColumns, [eq(webhooks.chainId, chainId), eq(webhooks.id, id), live]);
}

/** One page of the chain's live webhooks and the total (filters and sorts by the storage mapping). */
export async function listWebhooks(db: CoreDb, chainId: number, q: ListRequest): Promise<{ rows: WebhookRow[]; total: number }> {
  return listRows(db, webhookColumns, [eq(webhooks.chainId, chainId), eq(webhooks.deleted, false)], q);
}

/**
 * The active webhooks of the whole chain (no campaign) for `eventType`, oldest first: where an
 * event of the chain goes (phone_number_verification: the chain's SMS provider).
 */
export async function chainWebhooksFor(tx: CoreDb | CoreTx, chainId: number, eventType: string): Promise<WebhookRow[]> {
  return (tx as CoreDb)
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.chainId, chainId), eq(webhooks.eventType, eventType), eq(webhooks.deleted, false), eq(webhooks.active, true), isNull(webhooks.campaignId)))
    .orderBy(webhooks.id);
}

/**
 * Opens a stored webhook's secrets.
 * @throws SecretBoxError when they were sealed under another SERVICE_SECRET_KEY or altered
 */
export async function openWebhookSecrets(box: SecretBox, row: WebhookRow): Promise<OpenedWebhookSecrets> {
  return {
    signingSecret: await box.open(row.signingSecret, SECRET_PURPOSE),
    providerSettings: row.providerSettings === null ? null : (JSON.parse(await box.open(row.providerSettings, PROVIDER_SETTINGS_PURPOSE)) as ProviderSettings),
  };
}

async function seal(box: SecretBox, secrets: WebhookSecrets): Promise<{ signingSecret?: string; providerSettings?: string | null }> {
  const out: { signingSecret?: string; providerSettings?: string | null } = {};
  if (secrets.signingSecret !== undefined) out.signingSecret = await box.seal(secrets.signingSecret, SECRET_PURPOSE);
  if (secrets.providerSettings !== undefined) {
    out.providerSettings = secrets.providerSettings === null ? null : await box.seal(JSON.stringify(secrets.providerSettings), PROVIDER_SETTINGS_PURPOSE);
  }
  return out;
}

/** @throws ServiceError parameter_invalid (419) when `campaignId` is not a live campaign of the chain (locked until the write ends) */
async function requireLiveCampaign(tx: CoreTx, chainId: number, campaignId: number | null): Promise<void> {
  if (campaignId === null) return;
  const [row] = await tx
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.chainId, chainId), eq(campaigns.deleted, false)))
    .for("update");
  if (!row) throw new ServiceError("parameter_invalid", `campaign ${campaignId} is no campaign of the chain.`);
}
