/**
 * A tiny local webhook receiver for the demo and the event-latency bench: an HTTP server on
 * 127.0.0.1 (a free port) that does what a receiver of the core API's deliveries should do
 * (README, "Webhooks"): checks `X-Service-Signature` with the signing secret, processes each
 * `Idempotency-Key` once (a repeat is answered 200 and ignored), and answers 200.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EVENT_HEADER, IDEMPOTENCY_HEADER, SIGNATURE_HEADER, verifySignature } from "@service/shared/webhook-signature";

/** One delivery as the receiver got it. */
export interface ReceivedEvent {
  /** Idempotency-Key */
  key: string;
  /** X-Service-Event */
  event: string;
  /** whether X-Service-Signature verified with the secret */
  signatureValid: boolean;
  /** the parsed body */
  body: any;
  /** when it arrived (performance.now() of this process, milliseconds) */
  at: number;
}

/** A running receiver. */
export interface WebhookReceiver {
  /** the URL to configure as target_url */
  url: string;
  /** every first delivery of a key, in order of arrival */
  events: ReceivedEvent[];
  /** requests that repeated a key already processed */
  duplicates: number;
  /** resolves with the first event (already received or to come) that `match` accepts */
  waitFor(match: (e: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent>;
  close(): Promise<void>;
}

/**
 * Starts the receiver.
 * @param secret the webhook's signing secret
 * @param path the path it answers (default /events)
 */
export async function startWebhookReceiver(secret: string, path = "/events"): Promise<WebhookReceiver> {
  const listeners = new Set<() => void>();
  const receiver: Omit<WebhookReceiver, "url" | "close"> = { events: [], duplicates: 0, waitFor };
  const seen = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const at = performance.now();
    if (req.method !== "POST" || req.url !== path) return void res.writeHead(404).end();
    const key = String(req.headers[IDEMPOTENCY_HEADER.toLowerCase()] ?? "");
    if (seen.has(key)) {
      receiver.duplicates++;
      return void res.writeHead(200).end();
    }
    seen.add(key);
    const signatureValid = await verifySignature(req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined, text, secret);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as null: the caller sees a body it cannot use
    }
    receiver.events.push({ key, event: String(req.headers[EVENT_HEADER.toLowerCase()] ?? ""), signatureValid, body, at });
    for (const l of listeners) l();
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  function waitFor(match: (e: ReceivedEvent) => boolean, timeoutMs: number): Promise<ReceivedEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = receiver.events.find(match);
        if (!found) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  }

  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
