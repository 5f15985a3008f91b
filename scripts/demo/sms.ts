/**
 * Demo step 5: phone verification by SMS (spec, "Events" and "Versioning" 1.6.3). Starts a local
 * receiver standing in for the chain's SMS provider (scripts/lib/webhook-receiver.ts), points the
 * chain's `phone_number_verification` webhook at it (POST /resources/webhook, replacing an older
 * demo receiver's), turns on the chain setting `verify_phone_numbers` (PATCH /resources/chain),
 * gives a member a phone number (add-user; alter-user when the number is verified already from an
 * earlier run), waits for the SMS with its code to arrive signed, and verifies the number with
 * that code (POST /internal/verify-phone-number): phone_number_status 3. Rerunnable.
 *
 * The running core API must accept a webhook target on 127.0.0.1: `npm start` does
 * (WEBHOOK_ALLOW_PRIVATE defaults to true there); elsewhere set WEBHOOK_ALLOW_PRIVATE=true.
 */
import { randomBytes } from "node:crypto";
import { ServiceCallError, type CoreApiClient } from "../lib/http-client.ts";
import { startWebhookReceiver, type ReceivedEvent } from "../lib/webhook-receiver.ts";

/** The member the step verifies. */
export const SMS_MEMBER = { username: "sam.jansen@example.com", first_name: "Sam", last_name: "Jansen", country_code: "NL", phone_number: "06 23456789", e164: "+31623456789" } as const;
/** The path of the demo's receivers: webhooks pointing at an older one (another port) are replaced. */
const RECEIVER_PATH = "/demo-sms";

/** What the SMS step did and found. */
export interface SmsDemo {
  receiverUrl: string;
  webhookId: number;
  userId: number;
  /** how the member got the number: add-user, or alter-user after clearing a verified one */
  via: string;
  sms: ReceivedEvent | null;
  /** milliseconds from the call that issued the code to the SMS at the receiver */
  latencyMs: number | null;
  statusBefore: number | null;
  statusAfter: number | null;
  problems: string[];
}

/**
 * Runs the SMS step against chain `chainId` with `core` logged in as a super-user admin.
 * @throws ServiceCallError when a call fails outright (other than the refused private target, which is a problem)
 */
export async function demoSms(core: CoreApiClient, chainId: number): Promise<SmsDemo> {
  const problems: string[] = [];
  const secret = `whsec_${randomBytes(18).toString("base64url")}`;
  const receiver = await startWebhookReceiver(secret, RECEIVER_PATH);
  const out: SmsDemo = { receiverUrl: receiver.url, webhookId: 0, userId: 0, via: "", sms: null, latencyMs: null, statusBefore: null, statusAfter: null, problems };
  let verifiedBefore: boolean | null = null;
  try {
    out.webhookId = await replaceReceiverWebhook(core, receiver.url, secret, problems);
    if (!out.webhookId) return out;
    verifiedBefore = (await core.get("/resources/chain")).verify_phone_numbers === true;
    await core.sendJson("PATCH", "/resources/chain", { verify_phone_numbers: true });

    const started = await giveMemberTheNumber(core, chainId, out);
    out.statusBefore = (await core.get("/internal/get-user", { user_id: out.userId })).user.phone_number_status;
    try {
      out.sms = await receiver.waitFor((e) => e.body?.data?.user_id === out.userId, 15_000);
      out.latencyMs = out.sms.at - started;
    } catch {
      problems.push("no SMS reached the receiver within 15 s (is the outbox worker running? see GET /resources/event_deliveries)");
      return out;
    }
    const verified = await core.sendForm("POST", "/internal/verify-phone-number", { user_id: out.userId, code: out.sms.body.data.code });
    out.statusAfter = verified.user.phone_number_status;
    checkDelivery(out, receiver.duplicates);
    return out;
  } finally {
    // The receiver stops with the demo: its webhook goes too (deliveries still queued for it are
    // given up, not retried against a closed port), and the chain's setting is put back.
    if (out.webhookId) await core.sendJson("DELETE", `/resources/webhook/${out.webhookId}`).catch(() => undefined);
    if (verifiedBefore === false) await core.sendJson("PATCH", "/resources/chain", { verify_phone_numbers: false }).catch(() => undefined);
    await receiver.close();
  }
}

/**
 * Replaces the chain's phone_number_verification webhooks to a receiver at RECEIVER_PATH (an
 * earlier run's) with one to `receiverUrl`, signed with `secret`.
 * @returns the new webhook's id; 0, with a line in `problems`, when the core API refuses the
 *   private target (400)
 */
async function replaceReceiverWebhook(core: CoreApiClient, receiverUrl: string, secret: string, problems: string[]): Promise<number> {
  const existing = (await core.get("/resources/webhooks", { limit: 100 })).resources as Array<{ id: number; target_url: string; event_type: string }>;
  for (const old of existing.filter((w) => w.event_type === "phone_number_verification" && new URL(w.target_url).pathname === RECEIVER_PATH)) {
    await core.sendJson("DELETE", `/resources/webhook/${old.id}`);
  }
  try {
    const hook = await core.sendJson("POST", "/resources/webhook", {
      event_type: "phone_number_verification", target_url: receiverUrl, signing_secret: secret, provider_settings: { sender: "DemoLoyalty" },
    });
    return hook.id;
  } catch (err) {
    if (err instanceof ServiceCallError && err.status === 400) {
      problems.push(`the core API refused the local receiver as a webhook target (${err.message}); start it with WEBHOOK_ALLOW_PRIVATE=true`);
      return 0;
    }
    throw err;
  }
}

/**
 * Gives SMS_MEMBER its phone number through add-user, or (verified in an earlier run) clears and
 * sets it again through alter-user, so a code is sent; fills `out.userId` and `out.via`.
 * @returns performance.now() at the call that sent the code
 */
async function giveMemberTheNumber(core: CoreApiClient, chainId: number, out: SmsDemo): Promise<number> {
  const { e164: _e164, ...params } = SMS_MEMBER;
  let started = performance.now();
  const added = await core.sendForm("POST", "/internal/add-user", { chain_id: chainId, update_if_exists: true, ...params });
  out.userId = added.user.id;
  out.via = "add-user";
  if (added.user.phone_number_status === 3) {
    // verified in an earlier run: re-submitting it sends nothing, so the member changes it (cleared, then set again)
    await core.sendForm("PUT", "/internal/alter-user", { user_id: out.userId, phone_number: "" });
    started = performance.now();
    await core.sendForm("PUT", "/internal/alter-user", { user_id: out.userId, phone_number: SMS_MEMBER.phone_number, country_code: "NL" });
    out.via = "alter-user (a new number for a member verified before)";
  }
  return started;
}

/** The checks on a delivered and verified code: signature, number, statuses, no repeats; into `out.problems`. */
function checkDelivery(out: SmsDemo, duplicates: number): void {
  const { problems, sms } = out;
  if (!sms!.signatureValid) problems.push("the SMS's X-Service-Signature did not verify with the webhook's secret");
  if (sms!.body.data.phone_number !== SMS_MEMBER.e164) problems.push(`the SMS went to ${sms!.body.data.phone_number}, expected ${SMS_MEMBER.e164}`);
  if (out.statusBefore !== 2) problems.push(`phone_number_status was ${out.statusBefore} before verification, expected 2 (validated)`);
  if (out.statusAfter !== 3) problems.push(`phone_number_status is ${out.statusAfter} after verification, expected 3 (verified)`);
  if (duplicates > 0) problems.push(`the receiver got ${duplicates} repeated deliveries (handled once each, by Idempotency-Key)`);
}
