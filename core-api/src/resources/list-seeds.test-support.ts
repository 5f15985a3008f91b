/**
 * Rows for the generated filter and sort test (filters-and-sorts.test.ts), one seeder per listed
 * resource. Rows are written straight to the database (drizzle, or the business repository, which
 * keeps the search index in step), never through the Resources API, and each seeder states by hand
 * the API value of every property it sets: that statement is the test's oracle, independent of the
 * storage mappings under test. A property a seeder does not state cannot be checked: the test
 * fails naming it, so a new F or S property is never skipped silently.
 */
import { eq } from "drizzle-orm";
import { deleteBusiness, insertBusiness } from "../businesses/business-repository.ts";
import { accessTokens, allowedIpRanges, businesses, chains, contentPages, memberNumberRanges, outbox, serviceClients, vouchers, webhooks } from "../db/schema.ts";
import { seedCampaign } from "../vouchers/voucher-test-support.ts";
import { insertVoucher } from "../vouchers/voucher-repository.ts";
import type { ResourcesWorld } from "./resources-test-support.ts";

/** A stored row: its id and the API value of each property the seeder set (Date for datetimes, `{id}` for references). */
export interface SeededRow {
  id: number | string;
  values: Record<string, unknown>;
}

export interface SeededResource {
  /** the live rows of the header chain: what an unfiltered list shows */
  rows: SeededRow[];
  /** rows a list never shows (deleted, or of another chain); their values are tried as filters too */
  hidden: SeededRow[];
}

/** Seeds one resource in the world's chain (and one row in `otherChain`). */
export type Seeder = (w: ResourcesWorld, otherChain: number) => Promise<SeededResource>;

/** 2026-01-{day} 10:00:00 UTC: distinct whole-second instants. */
export const day = (n: number) => new Date(Date.UTC(2026, 0, n, 10, 0, 0));

/** When a seeded row was created and last modified (days), and whether it is deleted. */
interface Stamps {
  created: number;
  modified: number;
  deleted?: boolean;
}

/** The columns every seeded row of `chainId` shares, and the API values of its two instants. */
function stamped(chainId: number, s: Stamps) {
  return {
    columns: { chainId, deleted: s.deleted ?? false, createdDate: day(s.created), lastModifiedDate: day(s.modified) },
    values: { created_date: day(s.created), last_modified_date: day(s.modified) },
  };
}

const business: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  const put = async (chainId: number, s: { name: string; owner_code: string; country_code: string; region: string; towncity: string; is_shut_down: boolean; created: number; modified: number }) => {
    const row = await insertBusiness(
      db,
      { chainId, name: s.name, ownerCode: s.owner_code, countryCode: s.country_code, region: s.region, towncity: s.towncity, isShutDown: s.is_shut_down },
      day(s.created),
    );
    await db.update(businesses).set({ lastModifiedDate: day(s.modified) }).where(eq(businesses.id, row.id));
    const { created, modified, ...values } = s;
    return { id: row.id, values: { ...values, id: row.id, chain: { id: chainId }, created_date: day(created), last_modified_date: day(modified) } };
  };
  const rows = [
    await put(w.core.chainId, { name: "alpha", owner_code: "OC-1", country_code: "NL", region: "north", towncity: "amsterdam", is_shut_down: false, created: 1, modified: 4 }),
    await put(w.core.chainId, { name: "bravo", owner_code: "OC-2", country_code: "NL", region: "south", towncity: "amsterdam", is_shut_down: true, created: 2, modified: 3 }),
    await put(w.core.chainId, { name: "alpha", owner_code: "OC-3", country_code: "BE", region: "north", towncity: "brussels", is_shut_down: false, created: 3, modified: 1 }),
    await put(w.core.chainId, { name: "delta", owner_code: "OC-4", country_code: "DE", region: "east", towncity: "berlin", is_shut_down: false, created: 4, modified: 2 }),
  ];
  const gone = await put(w.core.chainId, { name: "echo", owner_code: "OC-5", country_code: "FR", region: "west", towncity: "paris", is_shut_down: true, created: 5, modified: 5 });
  await deleteBusiness(db, w.core.chainId, gone.id as number, null, day(6));
  const foreign = await put(otherChain, { name: "alpha", owner_code: "OC-9", country_code: "NL", region: "north", towncity: "amsterdam", is_shut_down: false, created: 1, modified: 1 });
  return { rows, hidden: [gone, foreign] };
};

const voucher: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  type Spec = { type: string; status: string; campaign: number; user: number; creating_user: number | null; parent: SeededRow | null; expiry: number; created: number; modified: number; deleted?: boolean };
  const put = async (chainId: number, s: Spec): Promise<SeededRow> => {
    const row = await insertVoucher(
      db,
      {
        chainId,
        type: s.type,
        status: s.status,
        campaignId: s.campaign,
        userId: s.user,
        creatingUserId: s.creating_user,
        parentVoucherId: s.parent ? (s.parent.id as number) : null,
        expiryDate: day(s.expiry),
      },
      day(s.created),
    );
    await db.update(vouchers).set({ lastModifiedDate: day(s.modified), deleted: s.deleted ?? false }).where(eq(vouchers.id, row.id));
    const ref = (id: number | null) => (id === null ? null : { id });
    return {
      id: row.id,
      values: {
        id: row.id,
        key: row.key,
        type: s.type,
        status: s.status,
        campaign: { id: s.campaign },
        user: { id: s.user },
        creating_user: ref(s.creating_user),
        parent_voucher: s.parent ? { id: s.parent.id } : null,
        expiry_date: day(s.expiry),
        created_date: day(s.created),
        last_modified_date: day(s.modified),
        deleted: s.deleted ?? false,
      },
    };
  };
  const v1 = await put(w.core.chainId, { type: "basket", status: "generated", campaign: 11, user: 21, creating_user: 31, parent: null, expiry: 3, created: 1, modified: 2 });
  const v2 = await put(w.core.chainId, { type: "basket_pct", status: "claimed", campaign: 12, user: 22, creating_user: null, parent: v1, expiry: 1, created: 2, modified: 4 });
  const v3 = await put(w.core.chainId, { type: "basket", status: "redeemed", campaign: 11, user: 23, creating_user: 31, parent: v1, expiry: 4, created: 3, modified: 1 });
  const v4 = await put(w.core.chainId, { type: "honour", status: "generated", campaign: 13, user: 21, creating_user: 32, parent: v2, expiry: 2, created: 4, modified: 3 });
  const gone = await put(w.core.chainId, { type: "basket_fixed_unit", status: "claimed", campaign: 14, user: 24, creating_user: 33, parent: v3, expiry: 5, created: 5, modified: 5, deleted: true });
  const foreign = await put(otherChain, { type: "basket", status: "generated", campaign: 11, user: 21, creating_user: 31, parent: null, expiry: 3, created: 1, modified: 2 });
  return { rows: [v1, v2, v3, v4], hidden: [gone, foreign] };
};

const serviceClient: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  const put = async (chainId: number, s: Stamps & { name: string; enabled: boolean }): Promise<SeededRow> => {
    const { columns, values } = stamped(chainId, s);
    const [res] = await db.insert(serviceClients).values({ ...columns, name: s.name, enabled: s.enabled });
    const id = Number(res.insertId);
    return { id, values: { ...values, id, name: s.name, enabled: s.enabled, chain: { id: chainId } } };
  };
  const rows = [
    await put(w.core.chainId, { name: "pos", enabled: true, created: 1, modified: 2 }),
    await put(w.core.chainId, { name: "web", enabled: false, created: 2, modified: 3 }),
    await put(w.core.chainId, { name: "kiosk", enabled: true, created: 3, modified: 1 }),
  ];
  const gone = await put(w.core.chainId, { name: "old", enabled: false, created: 4, modified: 4, deleted: true });
  const foreign = await put(otherChain, { name: "pos", enabled: true, created: 1, modified: 2 });
  return { rows, hidden: [gone, foreign] };
};

const accessToken: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  // Client ids with no client row: the service_client seeds stay the chain's only clients, and a
  // token's client renders as its id alone either way.
  const [c1, c2] = [901, 902];
  const put = async (chainId: number, s: Stamps & { client: number; scope: string; active: boolean }): Promise<SeededRow> => {
    const id = crypto.randomUUID();
    const { columns, values } = stamped(chainId, s);
    await db.insert(accessTokens).values({ ...columns, id, serviceClientId: s.client, scope: s.scope, secretHash: "0".repeat(64), active: s.active });
    return { id, values: { ...values, id, service_client: { id: s.client }, scope: s.scope, active: s.active } };
  };
  const chain = `chain:${w.core.chainId}`;
  const rows = [
    await put(w.core.chainId, { client: c1, scope: chain, active: true, created: 1, modified: 3 }),
    await put(w.core.chainId, { client: c2, scope: `read_businesses:${w.core.chainId}`, active: false, created: 2, modified: 1 }),
    await put(w.core.chainId, { client: c2, scope: chain, active: true, created: 3, modified: 2 }),
  ];
  const gone = await put(w.core.chainId, { client: c1, scope: `chain:${otherChain}`, active: false, created: 4, modified: 4, deleted: true });
  const foreign = await put(otherChain, { client: c1, scope: chain, active: true, created: 1, modified: 3 });
  return { rows, hidden: [gone, foreign] };
};

const contentPage: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  // A page renders no created_date, so that stamp is not stated.
  const put = async (chainId: number, s: Stamps & { name: string; display_name: string; order: number; parent: SeededRow | null }): Promise<SeededRow> => {
    const { columns, values } = stamped(chainId, s);
    const parentId = s.parent ? (s.parent.id as number) : null;
    const [res] = await db.insert(contentPages).values({ ...columns, name: s.name, displayName: s.display_name, order: s.order, parentId });
    const id = Number(res.insertId);
    const parent = s.parent ? s.parent.values.name : null;
    return { id, values: { id, name: s.name, display_name: s.display_name, order: s.order, parent, last_modified_date: values.last_modified_date } };
  };
  const home = await put(w.core.chainId, { name: "home", display_name: "Home", order: 2, parent: null, created: 1, modified: 2 });
  const rows = [
    home,
    await put(w.core.chainId, { name: "offers", display_name: "Offers", order: 1, parent: home, created: 1, modified: 3 }),
    await put(w.core.chainId, { name: "about", display_name: "About", order: 3, parent: null, created: 1, modified: 1 }),
    await put(w.core.chainId, { name: "news", display_name: "News", order: 1, parent: home, created: 1, modified: 4 }),
  ];
  const gone = await put(w.core.chainId, { name: "archive", display_name: "Archive", order: 4, parent: home, created: 1, modified: 5, deleted: true });
  const foreign = await put(otherChain, { name: "home", display_name: "Home", order: 2, parent: null, created: 1, modified: 2 });
  return { rows, hidden: [gone, foreign] };
};

const allowedIpRange: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  // Live ranges bind the chain's admins to them; the test's super user is exempted, as a chain may say.
  await db.update(chains).set({ ipWhitelistSuperUserExemption: true }).where(eq(chains.id, w.core.chainId));
  const put = async (chainId: number, s: Stamps & { cidr: string; notes: string | null }): Promise<SeededRow> => {
    const { columns, values } = stamped(chainId, s);
    const [res] = await db.insert(allowedIpRanges).values({ ...columns, cidr: s.cidr, notes: s.notes });
    const id = Number(res.insertId);
    return { id, values: { ...values, id, cidr: s.cidr, notes: s.notes, chain: { id: chainId } } };
  };
  const rows = [
    await put(w.core.chainId, { cidr: "192.0.2.0/24", notes: "office", created: 1, modified: 3 }),
    await put(w.core.chainId, { cidr: "198.51.100.0/24", notes: null, created: 2, modified: 1 }),
    await put(w.core.chainId, { cidr: "2001:db8::/32", notes: "vpn", created: 3, modified: 2 }),
  ];
  const gone = await put(w.core.chainId, { cidr: "203.0.113.0/24", notes: "old", created: 4, modified: 4, deleted: true });
  const foreign = await put(otherChain, { cidr: "10.0.0.0/8", notes: "office", created: 1, modified: 3 });
  return { rows, hidden: [gone, foreign] };
};

// Bounds of one length, so that the oracle's text order is the numeric order the API sorts by
// (member-number-range.test.ts checks numbers of different lengths).
const memberNumberRange: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  const put = async (chainId: number, s: Stamps & { kind: string; first: string; last: string }): Promise<SeededRow> => {
    const { columns, values } = stamped(chainId, s);
    const [res] = await db.insert(memberNumberRanges).values({ ...columns, kind: s.kind, first: BigInt(s.first), last: BigInt(s.last), nextNumber: BigInt(s.first) });
    const id = Number(res.insertId);
    return { id, values: { ...values, id, kind: s.kind, first: s.first, last: s.last, chain: { id: chainId } } };
  };
  const rows = [
    await put(w.core.chainId, { kind: "generated", first: "2000", last: "2999", created: 1, modified: 3 }),
    await put(w.core.chainId, { kind: "custom", first: "7000", last: "7999", created: 2, modified: 1 }),
    await put(w.core.chainId, { kind: "custom", first: "1000", last: "1499", created: 3, modified: 2 }),
  ];
  const gone = await put(w.core.chainId, { kind: "generated", first: "3000", last: "3999", created: 4, modified: 4, deleted: true });
  const foreign = await put(otherChain, { kind: "custom", first: "2000", last: "2999", created: 1, modified: 3 });
  return { rows, hidden: [gone, foreign] };
};

const webhook: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  const campaignId = await seedCampaign(db, w.core.chainId, { title: "Hooked" });
  const put = async (chainId: number, s: Stamps & { active: boolean; campaign: number | null; target_url: string }): Promise<SeededRow> => {
    const { columns, values } = stamped(chainId, s);
    const [res] = await db.insert(webhooks).values({
      ...columns, campaignId: s.campaign, eventType: "phone_number_verification", targetUrl: s.target_url, signingSecret: "v1.sealed", active: s.active,
    });
    const id = Number(res.insertId);
    return {
      id,
      values: { ...values, id, active: s.active, campaign: s.campaign === null ? null : { id: s.campaign }, target_url: s.target_url, event_type: "phone_number_verification", chain: { id: chainId } },
    };
  };
  const rows = [
    await put(w.core.chainId, { active: true, campaign: null, target_url: "https://a.example.com/hook", created: 1, modified: 3 }),
    await put(w.core.chainId, { active: false, campaign: campaignId, target_url: "https://b.example.com/hook", created: 2, modified: 1 }),
    await put(w.core.chainId, { active: true, campaign: campaignId, target_url: "https://c.example.com/hook", created: 3, modified: 2 }),
  ];
  const gone = await put(w.core.chainId, { active: false, campaign: null, target_url: "https://d.example.com/hook", created: 4, modified: 4, deleted: true });
  const foreign = await put(otherChain, { active: true, campaign: null, target_url: "https://a.example.com/hook", created: 1, modified: 3 });
  return { rows, hidden: [gone, foreign] };
};

// Outbox rows are written as they are (kinds and event types are plain strings in the table), so
// every filter and sort key has values to tell rows apart.
const eventDelivery: Seeder = async (w, otherChain) => {
  const db = w.core.db;
  type Spec = {
    kind: string; event: string; target: number | null; key?: string; status: string; attempts: number; code: number | null; next: number; last: number | null; created: number; modified: number;
  };
  const put = async (chainId: number, s: Spec): Promise<SeededRow> => {
    const deliveryId = crypto.randomUUID();
    const [res] = await db.insert(outbox).values({
      deliveryId, chainId, kind: s.kind, targetId: s.target, orderingKey: s.key ?? null, eventType: s.event, payload: "v1.sealed", status: s.status, attempts: s.attempts,
      nextAttemptAt: day(s.next), lastAttemptDate: s.last === null ? null : day(s.last), lastStatusCode: s.code, lastError: s.code === null ? null : `HTTP ${s.code}`,
      createdDate: day(s.created), lastModifiedDate: day(s.modified),
    });
    const id = Number(res.insertId);
    return {
      id,
      values: {
        id, delivery_id: deliveryId, chain: { id: chainId }, destination_kind: s.kind, event_type: s.event, target_id: s.target, ordering_key: s.key ?? null, status: s.status, attempts: s.attempts,
        next_attempt_date: day(s.next), last_attempt_date: s.last === null ? null : day(s.last), last_status_code: s.code,
        created_date: day(s.created), last_modified_date: day(s.modified),
      },
    };
  };
  const rows = [
    await put(w.core.chainId, { kind: "webhook", event: "phone_number_verification", target: 7, status: "pending", attempts: 2, code: 500, next: 5, last: 4, created: 1, modified: 4 }),
    await put(w.core.chainId, { kind: "webhook", event: "phone_number_verification", target: 8, status: "failed", attempts: 15, code: 404, next: 3, last: 3, created: 2, modified: 3 }),
    await put(w.core.chainId, { kind: "authentication_point", event: "user_changed", target: null, key: "authentication_point:1:user:1", status: "pending", attempts: 0, code: null, next: 1, last: 6, created: 3, modified: 1 }),
    await put(w.core.chainId, { kind: "authentication_point", event: "user_changed", target: null, key: "authentication_point:1:user:2", status: "failed", attempts: 1, code: 503, next: 6, last: 2, created: 4, modified: 2 }),
  ];
  const foreign = await put(otherChain, { kind: "webhook", event: "phone_number_verification", target: 7, status: "pending", attempts: 1, code: 500, next: 2, last: 1, created: 1, modified: 1 });
  return { rows, hidden: [foreign] };
};

/** The seeder of every listed resource, by declaration name. */
export const SEEDERS: Readonly<Record<string, Seeder>> = {
  business,
  voucher,
  access_token: accessToken,
  service_client: serviceClient,
  "content-page": contentPage,
  allowed_ip_range: allowedIpRange,
  member_number_range: memberNumberRange,
  webhook,
  event_delivery: eventDelivery,
};
