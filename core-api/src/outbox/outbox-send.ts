/**
 * One HTTP attempt of an outbox delivery (outbox/outbox-worker.ts): the prepared request POSTed
 * with the delivery's headers (`Idempotency-Key`, the event type, and the signature when the
 * destination has a signing secret: @service/shared/webhook-signature), never following a
 * redirect, bounded by the send timeout and by the worker's stop.
 */
import { EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signPayload } from "@service/shared/webhook-signature";
import type { OutboxRow, PreparedRequest } from "./destination.ts";
import type { AttemptFailure } from "./outbox-repository.ts";

/** Thrown by sendAttempt when the worker's stop cut it: the row is given back, not counted as failed. */
export class SendStopped extends Error {}

/** What an attempt needs of the worker. */
export interface SendOptions {
  fetch: typeof fetch;
  /** the fetch of requests marked `publicOnly` (the address is checked at connect time) */
  publicFetch: typeof fetch;
  /** longest wait for the receiver's answer, in milliseconds */
  timeoutMs: number;
  /** aborted when the worker's stop cuts the sends in flight */
  cut: AbortSignal;
}

/**
 * Sends one attempt of `row`.
 * @param now signs with this time (the signature's `t`)
 * @returns "delivered" for a 2xx answer; otherwise the failure to record: the status and the
 *   start of the answer's body, no answer within the timeout, or why the request failed
 * @throws SendStopped when `options.cut` aborted it
 */
export async function sendAttempt(row: OutboxRow, req: PreparedRequest, now: Date, options: SendOptions): Promise<"delivered" | AttemptFailure> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "service-platform-outbox/1",
    [IDEMPOTENCY_HEADER]: row.deliveryId,
    [EVENT_HEADER]: row.eventType,
    ...req.headers,
  };
  if (req.signingSecret !== null) headers[SIGNATURE_HEADER] = await signPayload(req.signingSecret, req.body, Math.floor(now.getTime() / 1000));
  const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.cut]);
  try {
    // redirect "manual": a redirect is a failed attempt, never followed (it could lead to a private address).
    const send = req.publicOnly ? options.publicFetch : options.fetch;
    const res = await untilAborted(send(req.url, { method: "POST", headers, body: req.body, redirect: "manual", signal }), signal);
    if (res.status >= 200 && res.status < 300) {
      // Not awaited: the answer's body is not needed, and a stream may never settle its cancel.
      void res.body?.cancel().catch(() => {});
      return "delivered";
    }
    const text = await untilAborted(res.text(), signal).catch(() => "");
    return { statusCode: res.status, error: `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ""}` };
  } catch (err) {
    if (options.cut.aborted) throw new SendStopped();
    if (signal.aborted) return { statusCode: null, error: `no answer within ${options.timeoutMs} ms` };
    return { statusCode: null, error: `request failed: ${messageOf(err)}` };
  }
}

/** `work`, or a rejection as soon as `signal` aborts (a fetch that ignores its signal cannot hold the worker). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error("aborted"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** An error's message with its cause's code or message, for the delivery's recorded error. */
export function messageOf(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ""}`;
}
