/**
 * EventDelivery in the Resources API (handbook, "Events": failed deliveries visible to admins):
 * the adapter between the generic engine and outbox/event-delivery-repository.ts. Super users
 * only, reads included (auth/access-table.ts). No POST: deliveries are written by the changes
 * that cause them. PUT/PATCH accept only `status` = `pending` (a retry), else 419.
 */
import { eventDeliveryResource } from "@service/shared/resources/event-delivery";
import { loadChainRecord } from "../chains/nested-record.ts";
import { ServiceError } from "../http/service-error.ts";
import { eventDeliveryRecord } from "../outbox/event-delivery-columns.ts";
import { dropEventDelivery, findEventDelivery, listEventDeliveries, retryEventDelivery } from "../outbox/event-delivery-repository.ts";
import type { ResourceAdapter } from "./engine.ts";

/** The EventDelivery adapter of the engine. */
export const eventDeliveryAdapter: ResourceAdapter = {
  declaration: eventDeliveryResource,

  async findOne(scope, by) {
    const row = await findEventDelivery(scope.db, scope.chainId, by.property === "delivery_id" ? { deliveryId: String(by.value) } : { id: by.value as number });
    return row ? eventDeliveryRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },

  async list(scope, q) {
    const { rows, total } = await listEventDeliveries(scope.db, scope.chainId, q);
    const chain = await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain);
    return { records: rows.map((r) => eventDeliveryRecord(r, chain)), total };
  },

  async update(scope, target, values) {
    if (values.status === undefined) return target;
    if (values.status !== "pending") throw new ServiceError("parameter_invalid", "status can only be set to pending (a retry of a failed delivery).");
    const row = await retryEventDelivery(scope.db, scope.chainId, target.id as number, scope.now);
    return row ? eventDeliveryRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },

  async remove(scope, target) {
    const row = await dropEventDelivery(scope.db, scope.chainId, target.id as number);
    return row ? eventDeliveryRecord(row, await loadChainRecord(scope.db, scope.chainId, scope.recursionLevel, scope.chain)) : null;
  },
};
