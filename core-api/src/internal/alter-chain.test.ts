/**
 * alter-chain (handbook, "Baskets": alter-chain): a super-user admin changes W properties of the
 * chain, checked as the Chain resource's PATCH checks them; a setting the resource does not write
 * (the basket pricing settings) and half a referral window are 419; tokens, shoppers and other
 * admins 68; PUT only (13); nothing written on a refusal.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { chains } from "../db/schema.ts";
import { call, NATIVE_APP, shopperSession, usersWorldForFile } from "../users/user-test-support.ts";

const w = usersWorldForFile();

const alter = (params: Record<string, unknown>, headers = w.adminHeaders, encoding: "json" | "form" = "json", method = "PUT", path = "/internal/alter-chain") =>
  call(w.core, method, path, headers, { chain_id: w.core.chainId, ...params } as never, encoding);
const chainRow = async () => (await w.core.db.select().from(chains).where(eq(chains.id, w.core.chainId)))[0]!;

describe("alter-chain", () => {
  for (const encoding of ["json", "form"] as const) {
    it(`changes W properties and answers the chain at level 3 (${encoding})`, async () => {
      const r = await alter({ allows_double_discounting: true, phone_number: "+31201234567", referral_code_submission_window_unit: "month", referral_code_submission_window_quantity: 6 }, w.adminHeaders, encoding);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.results).toMatchObject({ result_type: "alter-chain", chain: { id: w.core.chainId, allows_double_discounting: true, phone_number: "+31201234567" } });
      expect(await chainRow()).toMatchObject({ allowsDoubleDiscounting: true, referralCodeSubmissionWindowUnit: "month", referralCodeSubmissionWindowQuantity: 6 });
      await alter({ allows_double_discounting: false });
    });
  }

  it("answers under /auth/ and with .json", async () => {
    expect((await alter({ language: "nl" }, w.adminHeaders, "json", "PUT", "/auth/alter-chain.json")).status).toBe(200);
  });

  it("refuses with the handbook's codes and writes nothing", async () => {
    const me = await shopperSession(w.core, NATIVE_APP, "alter-chain-shopper@example.com");
    const writer = await w.core.admin({ read: true, write: true, assign: true });
    const { "X-Service-Chain-ID": _c, ...writerHeaders } = writer.headers;
    // A whole referral window, so that clearing its unit alone leaves half of one.
    expect((await alter({ referral_code_submission_window_unit: "month", referral_code_submission_window_quantity: 6 })).status).toBe(200);
    const before = JSON.stringify(await chainRow());
    const cases: Array<[Record<string, unknown>, number, Record<string, string>?, string?]> = [
      [{ calculate_basket_on_total_value_online: true }, 419],
      [{ basket_voucher_always_redeem_full_value_in_store: true }, 419],
      [{ redeem_basket_voucher_on_negative_value_basket: true }, 419],
      [{ expired_vouchers_regenerate_on_return: true }, 419],
      [{ referral_code_submission_window_unit: null }, 419],
      [{ referral_code_submission_window_unit: "fortnight", referral_code_submission_window_quantity: 1 }, 419],
      [{ allows_double_discounting: "perhaps" }, 419], // as PATCH /resources/chain answers it
      [{ phone_number: "1".repeat(40) }, 482],
      [{ no_such_setting: 1 }, 419],
      [{ chain_id: "one" }, 76],
      [{ chain_id: "" }, 3],
      [{ allows_double_discounting: true }, 68, w.token],
      [{ allows_double_discounting: true }, 68, me.headers],
      [{ allows_double_discounting: true }, 68, writerHeaders],
      [{ chain_id: w.otherChainId + 1000, allows_double_discounting: true }, 68],
      [{ allows_double_discounting: true }, 13, undefined, "POST"],
    ];
    for (const [params, code, headers, method] of cases) {
      const r = await alter(params, headers ?? w.adminHeaders, "json", method ?? "PUT");
      expect(r.body.error?.code, JSON.stringify(params)).toBe(code);
    }
    expect(JSON.stringify(await chainRow())).toBe(before);
  });
});
