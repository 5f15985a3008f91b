/**
 * The registry of the outbox's destination kinds (outbox/destination.ts): the row's `kind` ->
 * the kind that prepares its request. The outbox worker reads only this map.
 *
 * Adding a kind: write its `DestinationKind` in its own module (next to the domain it serves),
 * add one line here, and have producers `enqueue({ kind: "<name>", ... })`. Nothing else changes.
 */
import { WEBHOOK_DESTINATION, webhookDestination } from "../webhooks/webhook-destination.ts";
import { AUTHENTICATION_POINT_KIND, authenticationPointKind } from "../authentication-points/webshop-sync.ts";
import type { DestinationKinds } from "./destination.ts";

/** Every destination kind the core API delivers to, by the name stored in `outbox.kind`. */
export const DESTINATION_KINDS: DestinationKinds = {
  [WEBHOOK_DESTINATION]: webhookDestination,
  /** a user change to the chain's webshop connector (`update`) */
  [AUTHENTICATION_POINT_KIND]: authenticationPointKind,
};
