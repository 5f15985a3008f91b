/**
 * Webhook in the Resources API (handbook, "Events": a super-user Resource): the adapter between
 * the generic engine and webhooks/webhook-repository.ts. Every operation needs a super-user admin
 * (auth/access-table.ts). Its own rules, after the engine's validation (nothing is written unless
 * all pass): the target URL (http(s), at most 2,048 characters, public addresses unless
 * WEBHOOK_ALLOW_PRIVATE: net/public-target.ts) and the campaign (a live one of the chain), both
 * 419. The secrets are sealed before they are stored and never rendered.
 */
import type { ProviderSettings } from "@service/shared/resources/webhook";
import { webhookResource } from "@service/shared/resources/webhook";
import { loadChainRecord } from "../chains/nested-record.ts";
import { webhookRecord } from "../webhooks/webhook-columns.ts";
import { deleteWebhook, findWebhook, insertWebhook, listWebhooks, updateWebhook, type WebhookFields, type WebhookRow, type WebhookSecrets } from "../webhooks/webhook-repository.ts";
import { requirePublicTarget } from "../net/public-target.ts";
import type { ResourceAdapter } from "./engine.ts";
import type { ResourceScope } from "./request-scope.ts";
import type { WriteValues } from "./write.ts";

/** The Webhook adapter of the engine. */
export const webhookAdapter: ResourceAdapter = {
  declaration: webhookResource,

  async findOne(scope, by) {
    const row = await findWebhook(scope.db, scope.chainId, by.value as number);
    return row ? record(scope, row) : null;
  },

  async list(scope, q) {
    const { rows, total } = await listWebhooks(scope.db, scope.chainId, q);
    const chain = await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain);
    return { records: rows.map((r) => webhookRecord(r, chain)), total };
  },

  async create(scope, values) {
    const fields = await fieldsOf(scope, values);
    const row = await insertWebhook(
      scope.db,
      await scope.secretBox(),
      scope.chainId,
      { campaignId: null, active: true, ...fields } as WebhookFields,
      { ...secretsOf(values), signingSecret: values.signing_secret as string },
      scope.actorAdminId,
      scope.now,
    );
    return record(scope, row);
  },

  async update(scope, target, values) {
    const row = await updateWebhook(scope.db, await scope.secretBox(), scope.chainId, target.id as number, await fieldsOf(scope, values), secretsOf(values), scope.actorAdminId, scope.now);
    return row ? record(scope, row) : null;
  },

  async remove(scope, target) {
    const row = await deleteWebhook(scope.db, scope.chainId, target.id as number, scope.actorAdminId, scope.now);
    return row ? record(scope, row) : null;
  },
};

async function record(scope: ResourceScope, row: WebhookRow) {
  return webhookRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain));
}

/**
 * The plain columns a write sets; the target URL checked first.
 * @throws ServiceError parameter_invalid (419) for a target URL that is refused
 */
async function fieldsOf(scope: ResourceScope, values: WriteValues): Promise<Partial<WebhookFields>> {
  const fields: Partial<WebhookFields> = {};
  if (values.target_url !== undefined) fields.targetUrl = (await requirePublicTarget(values.target_url as string, scope.targets)).href;
  if (values.event_type !== undefined) fields.eventType = values.event_type as string;
  if (values.active !== undefined) fields.active = values.active as boolean;
  if (values.campaign !== undefined) fields.campaignId = (values.campaign as { id: number } | null)?.id ?? null;
  return fields;
}

function secretsOf(values: WriteValues): WebhookSecrets {
  const secrets: WebhookSecrets = {};
  if (values.signing_secret !== undefined) secrets.signingSecret = values.signing_secret as string;
  if (values.provider_settings !== undefined) secrets.providerSettings = values.provider_settings as ProviderSettings | null;
  return secrets;
}
