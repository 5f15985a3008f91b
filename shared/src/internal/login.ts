/**
 * `POST /auth/login` and `DELETE /auth/logout` (handbook, "admin login"), declared once: their
 * parameters, errors and results.
 *
 * Login takes `username` and `password` (form or JSON). Without `X-Service-App-Hostname` it opens
 * an admin session; with it, a session for a shopper of that app's chain. The session is used by
 * sending `X-Service-Session-User-ID` (session_user_id) and `X-Service-Session-Key` (session_key).
 */
import { z } from "zod";
import { successEnvelope } from "../envelope.ts";
import { defineCall, param } from "./call.ts";
import { responseDateTime, text } from "./param-values.ts";


/** `results` of login: the new session. */
export const loginResultsSchema = z.strictObject({
  session_info: z.strictObject({
    /** the admin's (or shopper's) user id: send it as X-Service-Session-User-ID */
    session_user_id: z.int(),
    /** send it as X-Service-Session-Key; shown once */
    session_key: z.string(),
    /** when the session ends, per X-Service-API-version */
    expiry: responseDateTime,
  }),
  result_type: z.literal("login"),
});
export type LoginResults = z.infer<typeof loginResultsSchema>;

/** The whole success body of login. */
export const loginResponseSchema = successEnvelope(loginResultsSchema);

/** login: opens a session for an admin (or, with X-Service-App-Hostname, a shopper). */
export const loginCall = defineCall({
  name: "login",
  method: "POST",
  path: "/auth/login",
  summary: "Log in (open a session)",
  description:
    "Opens a session for an admin, or with X-Service-App-Hostname for a shopper of that app's chain. Send the returned " +
    "session_user_id and session_key as X-Service-Session-User-ID and X-Service-Session-Key. Repeated failures lock the " +
    "account and the address for a while (too_many_login_attempts, with Retry-After). An admin login from an address " +
    "outside the allowed IP ranges of every chain of the admin is refused with the same no_valid_session as a wrong password.",
  params: {
    username: param(text(255), { missing: "parameter_missing", invalid: "parameter_invalid", length: "string_parameter_too_long" }),
    // Not trimmed: spaces are part of a password.
    password: param(z.string().refine((s) => s.trim() !== "", { message: "cannot be empty", params: { refusal: "format" } }), { missing: "parameter_missing", invalid: "parameter_invalid", description: "sent as given (not trimmed)" }),
  },
  errors: ["no_valid_session", "too_many_login_attempts"],
  results: loginResultsSchema,
});

/** `results` of logout. */
export const logoutResultsSchema = z.strictObject({ result_type: z.literal("logout") });
export type LogoutResults = z.infer<typeof logoutResultsSchema>;

/** logout: ends the caller's session (X-Service-Session-Key). */
export const logoutCall = defineCall({
  name: "logout",
  method: "DELETE",
  path: "/auth/logout",
  summary: "Log out (end the session)",
  description: "Ends the session named by X-Service-Session-User-ID and X-Service-Session-Key, an admin's or a shopper's.",
  params: {},
  errors: ["no_valid_session"],
  results: logoutResultsSchema,
});
