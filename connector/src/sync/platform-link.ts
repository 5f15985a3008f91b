/**
 * The connector's side of the wiring between a chain's webshop and the platform (handbook, "Sync
 * between the webshop and the platform"): per chain, the core API's base URL, a privileged access
 * token of the chain's identity-source service client (sealed with the secret box under
 * SERVICE_SECRET_KEY) and the hostname of the chain's webshop app. The reconcile (reconcile.ts)
 * sends the chain's webshop changes there; a chain without a link is not synced.
 */
import { asc, eq, inArray } from "drizzle-orm";
import type { SecretBox } from "@service/shared/secret-box";
import { z } from "zod";
import type { ConnectorDb, ConnectorQueryable } from "../db/client.ts";
import { serviceChainWebsite, servicePlatformLink } from "../db/schema.ts";
import { runTransaction } from "@service/shared/node";

/** The secret-box purpose of a chain's access token: a sealed token copied to another chain's row does not open. */
export function accessTokenPurpose(chainId: number): string {
  return `service_platform_link.access_token:${chainId}`;
}

/** A privileged bearer token of the core API: `<access token uuid>:<token secret>`. */
export const ACCESS_TOKEN_FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[A-Za-z0-9_-]{16,256}$/i;

/** An app hostname as the core API stores it (X-Service-App-Hostname). */
const HOSTNAME = /^[a-z0-9](?:[a-z0-9.-]{0,253}[a-z0-9])?$/;

const linkInputSchema = z.object({
  chainId: z.int("chainId must be a positive integer").positive("chainId must be a positive integer"),
  coreApiUrl: z.string().trim().refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.search && !url.hash && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "coreApiUrl must be an http(s) URL without query, fragment or credentials, e.g. https://api.example.com")
    .transform((v) => v.replace(/\/+$/, "")).pipe(z.string().max(2048, "coreApiUrl must be at most 2048 characters")),
  accessToken: z.string().trim().regex(ACCESS_TOKEN_FORMAT, "accessToken must be a privileged token <access token id>:<secret>"),
  appHostname: z.string().trim().toLowerCase().regex(HOSTNAME, "appHostname must be a hostname, e.g. shop.example.com"),
});

/** What linkPlatform takes. */
export type PlatformLinkInput = z.input<typeof linkInputSchema>;

/** A linked chain, its token opened. */
export interface PlatformLink {
  chainId: number;
  /** base URL without trailing slash */
  coreApiUrl: string;
  /** `<access token id>:<secret>`, sent as `Authorization: Bearer <accessToken>` */
  accessToken: string;
  appHostname: string;
  /** customers created before this moment and never synced go out with `--full` only */
  linkedAt: Date;
  /** the websites serving the chain (service_chain_website) */
  websiteIds: number[];
}

/** A link that cannot be made or used; `message` is one line for an operator. */
export class PlatformLinkError extends Error {
  override name = "PlatformLinkError";
}

/**
 * Links chain `chainId` to the platform, or replaces its link's URL, token and hostname (the
 * first link's moment stays: it decides which customers are new, see PlatformLink.linkedAt).
 * @param box the secret box of SERVICE_SECRET_KEY (openSecretBox of @service/shared/secret-box)
 * @param input.coreApiUrl the core API's base URL, e.g. `http://127.0.0.1:8080`
 * @param input.accessToken a privileged token `<uuid>:<secret>` with scope `chain:<chainId>` of the
 *   chain's identity-source service client (the core API then records its users with signup
 *   channel `platform`)
 * @param input.appHostname the chain's webshop app (apps.hostname in the core API)
 * @param now the link's moment (default: now)
 * @returns whether the chain was linked for the first time
 * @throws PlatformLinkError when an input is malformed (the message names it, never the token)
 *   or no website of the shop serves the chain (`npm run admin -- map-website` first); nothing
 *   is written then
 */
export async function linkPlatform(
  db: ConnectorDb, box: SecretBox, input: PlatformLinkInput, now: Date = new Date(),
): Promise<{ created: boolean }> {
  const parsed = linkInputSchema.safeParse(input);
  if (!parsed.success) throw new PlatformLinkError(parsed.error.issues.map((i) => i.message).join("; "));
  const link = parsed.data;
  const sealed = await box.seal(link.accessToken, accessTokenPurpose(link.chainId));
  return runTransaction(db, async (tx) => {
    const [served] = await tx.select().from(serviceChainWebsite).where(eq(serviceChainWebsite.serviceChainId, link.chainId)).limit(1);
    if (!served) throw new PlatformLinkError(`no website of this shop serves chain ${link.chainId} (map one first: npm run admin -- map-website)`);
    const [existing] = await tx.select({ chainId: servicePlatformLink.serviceChainId }).from(servicePlatformLink)
      .where(eq(servicePlatformLink.serviceChainId, link.chainId)).for("update");
    const values = { coreApiUrl: link.coreApiUrl, accessTokenSealed: sealed, appHostname: link.appHostname, updatedAt: now };
    if (existing) {
      await tx.update(servicePlatformLink).set(values).where(eq(servicePlatformLink.serviceChainId, link.chainId));
      return { created: false };
    }
    // Two operators linking at once: the primary key lets one insert; the other updates it.
    await tx.insert(servicePlatformLink).values({ ...values, serviceChainId: link.chainId, linkedAt: now })
      .onDuplicateKeyUpdate({ set: values });
    return { created: true };
  });
}

/**
 * Links chain `chainId` as linkPlatform does, but only when the chain has no link yet: a link that
 * exists is left exactly as it is, whatever it says and whether or not its token still opens.
 * What seeding a start uses (db/seed.ts): a link is changed only by `npm run admin --
 * link-platform`, never by starting a service. Two starts at once: the primary key lets one
 * insert; the other finds the row and writes nothing.
 * @returns whether the link was made now
 * @throws PlatformLinkError as linkPlatform (a malformed input, no website serving the chain)
 */
export async function linkPlatformIfUnlinked(db: ConnectorDb, box: SecretBox, input: PlatformLinkInput, now: Date = new Date()): Promise<boolean> {
  const parsed = linkInputSchema.safeParse(input);
  if (!parsed.success) throw new PlatformLinkError(parsed.error.issues.map((i) => i.message).join("; "));
  const link = parsed.data;
  const linked = async () => (await db.select({ chainId: servicePlatformLink.serviceChainId }).from(servicePlatformLink)
    .where(eq(servicePlatformLink.serviceChainId, link.chainId)).limit(1)).length > 0;
  if (await linked()) return false;
  const [served] = await db.select().from(serviceChainWebsite).where(eq(serviceChainWebsite.serviceChainId, link.chainId)).limit(1);
  if (!served) throw new PlatformLinkError(`no website of this shop serves chain ${link.chainId} (map one first: npm run admin -- map-website)`);
  const sealed = await box.seal(link.accessToken, accessTokenPurpose(link.chainId));
  try {
    await db.insert(servicePlatformLink).values({
      serviceChainId: link.chainId, coreApiUrl: link.coreApiUrl, accessTokenSealed: sealed, appHostname: link.appHostname, linkedAt: now, updatedAt: now,
    });
    return true;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause ?? (err as { code?: string });
    if (cause?.code === "ER_DUP_ENTRY") return false;
    throw err;
  }
}

/**
 * Every linked chain with its token opened and its websites, by chain id.
 * @param chainIds only these chains (default: all)
 * @throws PlatformLinkError when a stored token does not open (SERVICE_SECRET_KEY changed since
 *   it was linked: link the chain again)
 */
export async function readPlatformLinks(db: ConnectorQueryable, box: SecretBox, chainIds?: number[]): Promise<PlatformLink[]> {
  const rows = await db.select().from(servicePlatformLink)
    .where(chainIds ? inArray(servicePlatformLink.serviceChainId, chainIds.length ? chainIds : [-1]) : undefined)
    .orderBy(asc(servicePlatformLink.serviceChainId));
  if (rows.length === 0) return [];
  const websites = await db.select().from(serviceChainWebsite)
    .where(inArray(serviceChainWebsite.serviceChainId, rows.map((r) => r.serviceChainId)));
  const links: PlatformLink[] = [];
  for (const row of rows) {
    let accessToken: string;
    try {
      accessToken = await box.open(row.accessTokenSealed, accessTokenPurpose(row.serviceChainId));
    } catch {
      throw new PlatformLinkError(
        `the access token of chain ${row.serviceChainId} does not open under this SERVICE_SECRET_KEY: link the chain again (npm run admin -- link-platform)`,
      );
    }
    links.push({
      chainId: row.serviceChainId,
      coreApiUrl: row.coreApiUrl,
      accessToken,
      appHostname: row.appHostname,
      linkedAt: row.linkedAt,
      websiteIds: websites.filter((w) => w.serviceChainId === row.serviceChainId).map((w) => w.websiteId).sort((a, b) => a - b),
    });
  }
  return links;
}
