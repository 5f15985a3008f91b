/**
 * Demo step 4: members (spec, "Internal call: add-user"). Makes sure the chain hands out member
 * numbers from a generated range, registers a few members whose phone numbers are written the way
 * people type them in their country (the API stores them in E.164), and reads each back with
 * get-user. Safe to rerun: add-user runs with update_if_exists, so a second run updates them.
 */
import type { CoreApiClient } from "../lib/http-client.ts";

/** The demo members: national phone formats, with country_code as the hint. */
export const DEMO_MEMBERS = [
  { username: "anna.devries@example.com", first_name: "Anna", last_name: "de Vries", country_code: "NL", phone_number: "06 12345678", e164: "+31612345678" },
  { username: "lucas.peeters@example.com", first_name: "Lucas", last_name: "Peeters", country_code: "BE", phone_number: "0470 12 34 56", e164: "+32470123456" },
  { username: "mia.schmidt@example.com", first_name: "Mia", last_name: "Schmidt", country_code: "DE", phone_number: "0151 23456789", e164: "+4915123456789" },
] as const;

/** The range the demo creates when the chain has no generated one. */
const DEMO_RANGE = { kind: "generated", first: "100000", last: "199999" } as const;

/** A chain's generated member-number range, and whether this run created it. */
export interface DemoRange {
  id: number;
  first: string;
  last: string;
  created: boolean;
}

/**
 * The admin's chain's generated member-number range: the lowest one, which add-user hands numbers
 * out from first (the demo chain starts with the default range 10000000-99999999), else a new one (100000-199999, POST
 * /resources/member_number_range) rather than the default one add-user would create. Steps 4 and 6
 * both call it, so either runs first.
 * @param core logged in as a super-user admin of the chain
 * @throws ServiceCallError when a call fails
 */
export async function ensureMemberNumberRange(core: CoreApiClient): Promise<DemoRange> {
  const ranges = await core.get("/resources/member_number_ranges", { kind: "generated" });
  const lowestFirst = (list: Array<{ id: number; first: string; last: string }>) =>
    list.reduce<(typeof list)[number] | undefined>((low, r) => (low === undefined || BigInt(r.first) < BigInt(low.first) ? r : low), undefined);
  const existing = lowestFirst(ranges.resources as Array<{ id: number; first: string; last: string }>);
  return existing
    ? { id: existing.id, first: existing.first, last: existing.last, created: false }
    : await core.sendForm("POST", "/resources/member_number_range", DEMO_RANGE).then((r) => ({ id: r.id, first: r.first, last: r.last, created: true }));
}

export interface MembersDemo {
  /** the generated range used, and whether this run created it */
  range: DemoRange;
  members: Array<{ username: string; userId: number; memberNumber: string | null; phone: string | null; userType: string; readBack: boolean }>;
  problems: string[];
}

/**
 * Runs the members step against chain `chainId` with `core` logged in as a super-user admin.
 * @throws ServiceCallError when a call fails outright (a refused member is reported as a problem)
 */
export async function demoMembers(core: CoreApiClient, chainId: number): Promise<MembersDemo> {
  const problems: string[] = [];
  const range = await ensureMemberNumberRange(core);

  const members: MembersDemo["members"] = [];
  for (const m of DEMO_MEMBERS) {
    const { e164, ...params } = m;
    const added = await core.sendForm("POST", "/internal/add-user", { chain_id: chainId, update_if_exists: true, ...params });
    const user = added.user;
    const read = await core.get("/internal/get-user", { chain_id: chainId, username: m.username });
    const readBack = JSON.stringify(read.user) === JSON.stringify(user);
    if (user.phone_number !== e164) problems.push(`${m.username}: phone stored as ${user.phone_number}, expected ${e164}`);
    if (!user.member_number) problems.push(`${m.username}: no member number`);
    if (!readBack) problems.push(`${m.username}: get-user answered otherwise than add-user`);
    members.push({ username: m.username, userId: user.id, memberNumber: user.member_number, phone: user.phone_number, userType: added.user_type, readBack });
  }
  const numbers = new Set(members.map((m) => m.memberNumber));
  if (numbers.size !== members.length) problems.push("two members share a member number");
  return { range, members, problems };
}
