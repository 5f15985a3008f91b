/**
 * The delivery signature (handbook, "Events"): what a receiver computes, checked against an
 * independent HMAC (node:crypto), and the refusals: another secret, an altered body, an old
 * timestamp, malformed headers.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSignatureHeader, signPayload, verifySignature } from "./webhook-signature.ts";

const secret = "whsec_abc";
const body = '{"type":"phone_number_verification","data":{"code":"123456"}}';
const t = 1_767_225_600;
const at = new Date(t * 1000);

describe("webhook signature", () => {
  it("is t=<unix>,v1=<hex HMAC-SHA256 of t.body>", async () => {
    const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
    expect(await signPayload(secret, body, t)).toBe(`t=${t},v1=${expected}`);
  });

  it("verifies with the secret within the tolerance, and with one of several v1 entries", async () => {
    const header = await signPayload(secret, body, t);
    expect(await verifySignature(header, body, secret, { now: at })).toBe(true);
    expect(await verifySignature(header, body, secret, { now: new Date((t + 300) * 1000) })).toBe(true);
    const other = await signPayload("old-secret", body, t);
    expect(await verifySignature(`${header},${other.split(",")[1]}`, body, secret, { now: at })).toBe(true);
  });

  it("refuses another secret, an altered body, a timestamp too old or too new", async () => {
    const header = await signPayload(secret, body, t);
    expect(await verifySignature(header, body, "whsec_other", { now: at })).toBe(false);
    expect(await verifySignature(header, body.replace("123456", "654321"), secret, { now: at })).toBe(false);
    expect(await verifySignature(header, body, secret, { now: new Date((t + 301) * 1000) })).toBe(false);
    expect(await verifySignature(header, body, secret, { now: new Date((t - 301) * 1000) })).toBe(false);
  });

  it("refuses malformed headers without throwing", async () => {
    for (const bad of [null, undefined, "", "t=1", "v1=" + "a".repeat(64), `t=abc,v1=${"a".repeat(64)}`, `t=${t},v1=xyz`, `t=${t}=1,v1=${"a".repeat(64)}`]) {
      expect(await verifySignature(bad, body, secret, { now: at }), String(bad)).toBe(false);
    }
    expect(parseSignatureHeader(`t=${t}, v1=${"b".repeat(64)}`)).toEqual({ t, v1: ["b".repeat(64)] });
  });
});
