/**
 * apply-referral-code (handbook, "Baskets": apply-referral-code): the window's edges (just inside,
 * just outside, none configured), the user's own code, a second referral, an unknown code, a
 * shopper for themselves only; nothing written on a refusal. And the Chain resource keeps the
 * window whole (both fields set or both null).
 */
import { applyReferralCodeResponseSchema } from "@service/shared/internal/apply-referral-code";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chains, userReferrals, users } from "../db/schema.ts";
import { addUserAsAdmin, call, NATIVE_APP, NOW, shopperSession, writtenRows, usersWorldForFile } from "../users/user-test-support.ts";
import { windowEnd } from "../users/referral-window.ts";

const w = usersWorldForFile(async () => {
  await setWindow("day", 1);
});

const setWindow = (unit: string | null, quantity: number | null) =>
  w.core.db.update(chains).set({ referralCodeSubmissionWindowUnit: unit, referralCodeSubmissionWindowQuantity: quantity }).where(eq(chains.id, w.core.chainId));
let seq = 0;
const newUser = async (createdDate?: Date) => {
  const user = (await addUserAsAdmin(w, { username: `ref-${++seq}@example.com`, first_name: `F${seq}` })).body.results.user as { id: number; referral_code: string };
  if (createdDate) await w.core.db.update(users).set({ createdDate }).where(eq(users.id, user.id));
  return user;
};
const apply = (params: Record<string, unknown>, headers = w.adminHeaders) => call(w.core, "POST", "/internal/apply-referral-code", headers, { chain_id: w.core.chainId, ...params } as never);

describe("windowEnd", () => {
  it.each([
    ["second", 30, "2026-11-21T10:00:30Z"], ["day", 2, "2026-11-23T10:00:00Z"], ["week", 1, "2026-11-28T10:00:00Z"],
    ["month", 3, "2027-02-21T10:00:00Z"], ["year", 1, "2027-11-21T10:00:00Z"],
  ] as const)("%s x %s", (unit, quantity, end) => expect(windowEnd(NOW, unit, quantity).toISOString()).toBe(end.replace("Z", ".000Z")));
});

describe("apply-referral-code", () => {
  it("records the referrer just inside the window; answers the user and the referring user", async () => {
    const referrer = await newUser();
    const user = await newUser(new Date(NOW.getTime() - 86_400_000 + 1000)); // the window ends 1 s from now
    const r = await apply({ user_id: user.id, referral_code: referrer.referral_code.toLowerCase() });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(applyReferralCodeResponseSchema.parse(r.body).results).toMatchObject({ user: { id: user.id }, referring_user: { id: referrer.id, first_name: `F${seq - 1}` } });
    expect(await w.core.db.select().from(userReferrals).where(eq(userReferrals.userId, user.id))).toMatchObject([{ referringUserId: referrer.id }]);
    // A second referral: 919.
    const other = await newUser();
    expect((await apply({ user_id: user.id, referral_code: other.referral_code })).body.error.code).toBe(919);
  });

  it("refuses with the handbook's codes and writes nothing", async () => {
    const referrer = await newUser();
    const outside = await newUser(new Date(NOW.getTime() - 86_400_000)); // the window ended now
    const inside = await newUser();
    const me = await shopperSession(w.core, NATIVE_APP, `ref-shopper-${++seq}@example.com`);
    const before = await writtenRows(w.core);
    const cases: Array<[Record<string, unknown>, number, Record<string, string>?]> = [
      [{ user_id: outside.id, referral_code: referrer.referral_code }, 918],
      [{ user_id: inside.id, referral_code: inside.referral_code }, 917],
      [{ user_id: inside.id, referral_code: "ZZZZZZZZ" }, 419],
      [{ user_id: inside.id }, 441],
      [{ referral_code: referrer.referral_code }, 441],
      [{ user_id: 99_999_999, referral_code: referrer.referral_code }, 68],
      [{ user_id: inside.id, referral_code: "x".repeat(256) }, 482],
      [{ chain_id: "one", user_id: inside.id, referral_code: referrer.referral_code }, 76],
      [{ user_id: inside.id, referral_code: referrer.referral_code }, 68, me.headers],
    ];
    for (const [params, code, headers] of cases) {
      expect((await apply(params, headers)).body.error?.code, JSON.stringify(params)).toBe(code);
    }
    await setWindow(null, null);
    try {
      expect((await apply({ user_id: inside.id, referral_code: referrer.referral_code })).body.error.code).toBe(918);
    } finally {
      await setWindow("day", 1);
    }
    expect(await writtenRows(w.core)).toBe(before);
    // The shopper for themselves: 200.
    const own = await call(w.core, "POST", "/auth/apply-referral-code.json", me.headers, { referral_code: referrer.referral_code } as never);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });

  it("the Chain resource sets the window whole: half a window is 419", async () => {
    const admin = await w.core.admin({ super_user: true });
    const patch = (body: Record<string, unknown>) => w.core.json(`/resources/chain/${w.core.chainId}`, { method: "PATCH", headers: { ...admin.headers, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await patch({ referral_code_submission_window_unit: null })).body.error?.code).toBe(419);
    expect((await patch({ referral_code_submission_window_quantity: 3 })).status).toBe(200);
    const both = await patch({ referral_code_submission_window_unit: "week", referral_code_submission_window_quantity: 2 });
    expect(both.status).toBe(200);
    const [stored] = await w.core.db.select().from(chains).where(eq(chains.id, w.core.chainId));
    expect(stored).toMatchObject({ referralCodeSubmissionWindowUnit: "week", referralCodeSubmissionWindowQuantity: 2 });
    expect((await patch({ referral_code_submission_window_unit: "fortnight" })).body.error?.code).toBe(419);
    await setWindow("day", 1);
  });
});
