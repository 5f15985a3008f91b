/**
 * Test support: a valid POST body for any resource, made from its POST body schema (the
 * req-post properties, each with a generated value) plus the few values a declaration cannot
 * express. Used by the generated tests (bad-input.test.ts, schema.contract.test.ts) to create the
 * instance a PUT / PATCH walk targets.
 */
import { campaigns, users } from "../db/schema.ts";
import type { JsonSchema } from "./schema-components.ts";
import { sampleValue } from "./test-values.ts";
import type { ResourcesWorld } from "./resources-test-support.ts";

type Prerequisite = (w: ResourcesWorld, seq: number) => Promise<Record<string, unknown>>;

/**
 * What a declaration cannot express, per resource: references to rows that must exist first.
 * Keep this tiny: every other value is generated from the declaration.
 */
export const PREREQUISITES: Record<string, Prerequisite> = {
  // A voucher belongs to an existing campaign and user of the header chain; a `basket` voucher
  // (the first type, which the generator picks) needs an amount (a per-type rule).
  voucher: async (w, seq) => {
    const [campaign] = await w.core.db.insert(campaigns).values({ chainId: w.core.chainId, title: `Walk ${seq}` }).$returningId();
    const [user] = await w.core.db.insert(users).values({ chainId: w.core.chainId, username: `walk${seq}@example.com` }).$returningId();
    return { campaign: { id: campaign!.id }, user: { id: user!.id }, amount: 5 };
  },
  // The cidr format is checked by the core API, not by the declaration (a plain string there).
  // Once the chain has a range, admin requests from outside it are refused, and app.request()
  // has no client address: the walk's super-user admin is exempted first (a chain setting).
  allowed_ip_range: async (w, seq) => {
    const exempt = await w.call("PATCH", "/resources/chain", { ip_whitelist_super_user_exemption: true });
    if (exempt.status !== 200) throw new Error(`super-user exemption for the walk: ${JSON.stringify(exempt.body)}`);
    return { cidr: `10.${seq % 256}.${Math.floor(seq / 256) % 256}.0/24` };
  },
  // An access token belongs to a service client, and its scope must name the header chain.
  access_token: async (w, seq) => {
    const client = await w.call("POST", "/resources/service_client", { name: `walk client ${seq}` });
    if (client.status !== 200) throw new Error(`service client for the walk: ${JSON.stringify(client.body)}`);
    return { service_client: { id: client.body.results.id }, scope: `chain:${w.core.chainId}` };
  },
  // A webhook's target must be a public address (checked by the core API, not the declaration);
  // an IP literal needs no resolver. Nothing is ever sent to it by these tests.
  webhook: async (_w, seq) => ({ target_url: `https://93.184.216.34/walk-${seq}` }),
};


/** The req-post properties of a POST body schema, each with a generated value. */
export function generatedBody(postBody: JsonSchema, seq: number): Record<string, unknown> {
  const props = (postBody.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const name of (postBody.required ?? []) as string[]) out[name] = sampleValue(props[name]!, seq);
  return out;
}

let seq = 0;

/**
 * A valid POST body of resource `name`: generated values plus its prerequisites.
 * @param postBody the resource's POST body schema
 */
export async function validPostBody(w: ResourcesWorld, name: string, postBody: JsonSchema): Promise<Record<string, unknown>> {
  const n = ++seq;
  return { ...generatedBody(postBody, n), ...(await PREREQUISITES[name]?.(w, n)) };
}
