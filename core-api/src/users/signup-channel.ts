/**
 * A user's signup channel (spec, "Internal call: add-user": "Signup channel"; handbook, "The
 * user"): stored once at creation, never changed. With `client_channel` in the request's
 * `X-Service-Request` header: that value when allowed, else `unknown:<value>`. Without it: a
 * request through an app (privileged, X-Service-App-Hostname) gives the app's kind
 * (`service-native-app`, `service-mobile-web`, `webshop`), a request by the chain's identity-source
 * service client gives `platform`, an admin's gives null. Pure.
 */
import { CLIENT_CHANNELS } from "@service/shared/internal/add-user";
import { ServiceError } from "../http/service-error.ts";

/** The kinds of app (apps.kind). */
export const APP_KINDS = ["native_app", "mobile_web", "webshop"] as const;
export type AppKind = (typeof APP_KINDS)[number];

/** The signup channel of each app kind. */
const CHANNEL_OF_APP: Record<AppKind, string> = {
  native_app: "service-native-app",
  mobile_web: "service-mobile-web",
  webshop: "webshop",
};

/** Longest stored channel (users.signup_channel). */
const MAX_CHANNEL = 64;
const UNKNOWN = "unknown:";

/**
 * The `client_channel` of an `X-Service-Request` header, as it is stored.
 * @param header the header value; absent or blank means none
 * @returns the allowed value, `unknown:<value>` for any other, or null when the header names none
 * @throws ServiceError parameter_invalid (419) when the header is not a JSON object, its
 *   client_channel is not text, or the value is longer than 56 characters
 * @example clientChannelOf('{"client_channel":"kiosk"}') // "unknown:kiosk"
 */
export function clientChannelOf(header: string | undefined): string | null {
  if (header === undefined || header.trim() === "") return null;
  let json: unknown;
  try {
    json = JSON.parse(header);
  } catch {
    throw new ServiceError("parameter_invalid", "X-Service-Request must be a JSON object.");
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new ServiceError("parameter_invalid", "X-Service-Request must be a JSON object.");
  const value = (json as Record<string, unknown>).client_channel;
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new ServiceError("parameter_invalid", "X-Service-Request client_channel must be text.");
  const channel = value.trim();
  if (channel === "") return null;
  if ((CLIENT_CHANNELS as readonly string[]).includes(channel)) return channel;
  if ([...channel].length > MAX_CHANNEL - UNKNOWN.length) {
    throw new ServiceError("parameter_invalid", `X-Service-Request client_channel has more than ${MAX_CHANNEL - UNKNOWN.length} characters.`);
  }
  return `${UNKNOWN}${channel}`;
}

/** How the user is being added. */
export type SignupSource =
  | { by: "admin" }
  | { by: "app"; kind: AppKind }
  | { by: "identity_source" };

/**
 * The signup channel to store for a new user.
 * @param clientChannel clientChannelOf the request's header
 */
export function signupChannelOf(clientChannel: string | null, source: SignupSource): string | null {
  if (clientChannel !== null) return clientChannel;
  if (source.by === "app") return CHANNEL_OF_APP[source.kind];
  if (source.by === "identity_source") return "platform";
  return null;
}
