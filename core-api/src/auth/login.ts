/**
 * `POST /auth/login` and `DELETE /auth/logout` (handbook, "admin login").
 *
 * Login takes `username` and `password` (form or JSON) and returns
 * `results.session_info {session_user_id, session_key, expiry}`.
 */
import { okBody } from "@service/shared";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { adminUsers } from "../db/schema.ts";
import { formatDateTime } from "../http/api-version.ts";
import { readString } from "../http/coerce.ts";
import { allParams } from "../http/params.ts";
import type { AppEnv } from "../http/request-context.ts";
import { ServiceError } from "../http/service-error.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { createSession, deleteSession } from "./sessions.ts";

// Verified against when the username is unknown, so a miss costs as much as a wrong password.
let dummyHash: Promise<string> | undefined;

/**
 * Logs an admin in.
 * @throws ServiceError parameter_missing (441) without username or password;
 *   no_valid_session (6, 401) for an unknown user, a wrong password or an inactive account
 */
export async function login(c: Context<AppEnv>): Promise<Response> {
  const { db, deps, now, version } = c.var.ctx;
  const params = await allParams(c);
  const username = readString(params, "username", { max: 255 });
  const password = params.password === undefined || params.password === null ? undefined : String(params.password);
  if (!username) throw new ServiceError("parameter_missing", "username is required.");
  if (!password) throw new ServiceError("parameter_missing", "password is required.");

  const [user] = await db.select().from(adminUsers).where(eq(adminUsers.username, username)).limit(1);
  const ok = user
    ? await verifyPassword(password, user.passwordHash)
    : await verifyPassword(password, await (dummyHash ??= hashPassword("dummy password")));
  if (!user || !ok || !user.active) throw new ServiceError("no_valid_session", "Invalid username or password.");

  const session = await createSession(db, "admin", user.id, now, deps.config.sessionTtlMs);
  return c.json(
    okBody({
      session_info: {
        session_user_id: session.session_user_id,
        session_key: session.session_key,
        expiry: formatDateTime(session.expiry, version),
      },
      result_type: "login",
    }),
  );
}

/**
 * Ends the caller's session (`X-Service-Session-Key`).
 * @throws ServiceError no_valid_session (6, 401) when no live session is named
 */
export async function logout(c: Context<AppEnv>): Promise<Response> {
  const { db, auth } = c.var.ctx;
  const key = c.req.header("x-service-session-key");
  if (auth.kind !== "admin" || !key || !(await deleteSession(db, key.trim()))) throw new ServiceError("no_valid_session");
  return c.json(okBody({ result_type: "logout" }));
}
