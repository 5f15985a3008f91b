/**
 * Demo step 7: checkout (the loyalty loop: get-basket-price, add-basket). The app's backend, a
 * service client with a chain-scope token, claims two vouchers a campaign issued to a member (a
 * 10% basket voucher and an honour voucher for a free coffee); the shop prices the member's basket
 * with them (get-basket-price: both applied, nothing stored), confirms the sale (add-basket: the
 * basket stored, both vouchers redeemed), sends the same confirmation again (a replay: the stored
 * answer, nothing written), and takes one item back (a return basket: the discount that item
 * carried comes back as a claimed replacement voucher). Safe to rerun: every run has its own
 * basket codes and vouchers.
 */
import { CoreApiClient } from "../lib/http-client.ts";
import { reportChecks } from "./report.ts";

/** The member the checkout runs for (added with update_if_exists). */
export const CHECKOUT_MEMBER = { username: "checkout.member@example.com", first_name: "Sam", last_name: "Jansen" } as const;

/** The basket: line prices for their quantities, in euros. */
export const CHECKOUT_LINES = [
  { retailer_item_code: "BEANS", item_barcode: "8712345000011", description: "Coffee beans 500 g", item_quantity: 2, item_price: "14.90" },
  { retailer_item_code: "MILK", item_barcode: "8712345000028", description: "Oat milk", item_quantity: 1, item_price: "1.29" },
  { retailer_item_code: "MUG", item_barcode: "8712345000035", description: "Mug", item_quantity: 1, item_price: "9.95" },
] as const;

/**
 * The lines of a priced basket as the demo prints them: description, quantity, the line price,
 * the line's discount and its final price. get-basket-price answers `item_price` as the number
 * the shop sent (a JSON number) and `discount` / `final_price` as decimal strings with 2 places,
 * so the line price is formatted here to match.
 * @param items get-basket-price's `basket_items`, with the demo basket's `description`s
 * @returns one text line per basket line, amounts in euros with 2 decimals
 */
export function pricedLines(items: ReadonlyArray<{ description?: unknown; item_quantity: number; item_price: number | string; discount: string; final_price: string }>): string[] {
  return items.map((l) => `${String(l.description).padEnd(20)} ${String(l.item_quantity).padStart(3)} x ${Number(l.item_price).toFixed(2).padStart(6)}  -${l.discount.padStart(5)}  = ${l.final_price.padStart(6)}`);
}

export interface CheckoutDemo {
  memberId?: number;
  voucherKeys: string[];
  pricing?: any;
  sale?: any;
  replay?: any;
  returned?: any;
  /** the vouchers' status after the sale, by key */
  statusAfter: Record<string, string>;
  problems: string[];
}

/**
 * Runs the checkout step on chain `chainId`.
 * @param admin logged in as a super-user admin of the chain (creates the campaign, the vouchers and the app's client)
 * @throws ServiceCallError when a call fails outright
 */
export async function demoCheckout(admin: CoreApiClient, chainId: number): Promise<CheckoutDemo> {
  const out: CheckoutDemo = { voucherKeys: [], statusAfter: {}, problems: [] };
  const stamp = `${Date.now().toString(36)}`;
  const member = await admin.sendForm("POST", "/internal/add-user", { chain_id: chainId, update_if_exists: true, ...CHECKOUT_MEMBER });
  const memberId = member.user.id as number;
  out.memberId = memberId;
  const campaign = await admin.sendForm("POST", "/internal/add-campaign", { chain_id: chainId, title: `Checkout demo ${stamp}`, is_active: true });
  // Valid for 90 days from today.
  const expiry_date = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 19) + "Z";
  const issued = [
    await admin.sendJson("POST", "/resources/voucher", { type: "basket_pct", discount_ratio: 0.1, title: "10% off", expiry_date, campaign: { id: campaign.campaign.id }, user: { id: memberId }, status: "generated" }),
    await admin.sendJson("POST", "/resources/voucher", { type: "honour", honour_code: "FREE-COFFEE", title: "A free coffee", expiry_date, campaign: { id: campaign.campaign.id }, user: { id: memberId }, status: "generated" }),
  ];
  const client = await admin.sendJson("POST", "/resources/service_client", { name: `Demo app backend ${stamp}` });
  const token = await admin.sendJson("POST", "/resources/access_token", { scope: `chain:${chainId}`, service_client: { id: client.id } });
  const app = new CoreApiClient(admin.baseUrl);
  app.useToken(token.id, token.token_secret, chainId);
  for (const v of issued) {
    await app.sendJson("PATCH", `/resources/voucher/${v.id}`, { status: "claimed" });
    out.voucherKeys.push(v.key);
  }

  const basket = { chain_id: chainId, user_id: memberId, basket_total_price: "26.14", basket_items: CHECKOUT_LINES };
  out.pricing = await app.sendJson("POST", "/internal/get-basket-price", { ...basket, basket_vouchers: out.voucherKeys });
  const applied = (out.pricing.vouchers_applied as Array<{ key: string; discount: string }>).map((v) => v.key);
  if (out.voucherKeys.some((k) => !applied.includes(k))) out.problems.push(`get-basket-price applied ${applied.length} of the 2 vouchers: ${JSON.stringify(out.pricing.vouchers_not_applied)}`);

  const code = `DEMO-${stamp}`;
  const confirm = { ...basket, retailer_basket_code: code, basket_vouchers: (out.pricing.vouchers_applied as Array<{ key: string; discount: string }>).map((v) => ({ key: v.key, expected_discount: v.discount })) };
  out.sale = await app.sendJson("POST", "/internal/add-basket", confirm);
  for (const v of issued) out.statusAfter[v.key] = (await app.get(`/resources/voucher/${v.id}`)).status;
  if (Object.values(out.statusAfter).some((s) => s !== "redeemed")) out.problems.push(`vouchers after the sale: ${JSON.stringify(out.statusAfter)}`);
  out.replay = await app.sendJson("POST", "/internal/add-basket", confirm);
  if (out.replay.duplicate !== true || out.replay.basket.id !== out.sale.basket.id) out.problems.push("the second confirmation was not answered as a replay of the first");

  out.returned = await app.sendJson("POST", "/internal/add-basket", {
    chain_id: chainId, user_id: memberId, basket_total_price: "-9.95", retailer_basket_code: `${code}-R1`,
    basket_items: [{ retailer_item_code: "MUG", item_quantity: -1, item_price: "-9.95", return_item: true, original_retailer_basket_code: code }],
  });
  const mugDiscount = out.sale.pricing.basket_items.find((l: { retailer_item_code: string }) => l.retailer_item_code === "MUG")?.discount;
  const replacement = out.returned.issued_vouchers?.[0];
  if (!replacement || replacement.reason !== "return" || replacement.amount !== mugDiscount) out.problems.push(`the return issued ${JSON.stringify(out.returned.issued_vouchers)}, not one replacement of ${mugDiscount}`);
  return out;
}

/**
 * Prints step 7's lines (demo/checkout.ts).
 * @returns true when a check failed
 */
export function reportCheckout(c: CheckoutDemo): boolean {
  console.log(`   member ${c.memberId}: vouchers ${c.voucherKeys.map((k) => k.slice(0, 8)).join(", ")} claimed (PATCH /resources/voucher/{id} status=claimed, chain-scope token)`);
  const p = c.pricing;
  if (p) {
    console.log(`   POST /internal/get-basket-price -> total ${p.basket_total_price}, discount ${p.basket_discount}, to pay ${p.basket_final_price} (nothing stored)`);
    for (const line of pricedLines(p.basket_items)) console.log(`     ${line}`);
    for (const v of p.vouchers_applied) console.log(`     applied ${v.type.padEnd(10)} ${v.key.slice(0, 8)}  -${v.discount}${v.honour_code ? `  honour code ${v.honour_code}` : ""}`);
  }
  if (c.sale) console.log(`   POST /internal/add-basket ${c.sale.basket.retailer_basket_code} -> basket ${c.sale.basket.id}, discount ${c.sale.basket.basket_discount}; vouchers ${Object.values(c.statusAfter).join(", ")}`);
  if (c.replay) console.log(`   POST /internal/add-basket again (same code) -> basket ${c.replay.basket.id}, duplicate ${c.replay.duplicate}`);
  const r = c.returned?.issued_vouchers?.[0];
  if (c.returned) console.log(`   POST /internal/add-basket return of the mug -> basket ${c.returned.basket.id}; replacement voucher ${r ? `${r.key.slice(0, 8)} of ${r.amount} (claimed)` : "none"}`);
  return reportChecks(c.problems, "both vouchers applied and redeemed once, the replay stored nothing, the return gave the mug's discount back");
}
