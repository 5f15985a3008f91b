/**
 * `npm run admin -- set-password --username <username> [--password <password>]`: resets a lost
 * admin password. The new password is hashed as the product hashes admin passwords (argon2id,
 * core-api/src/crypto/passwords.ts), and every session of that admin ends in the same transaction:
 * a reset usually follows a lost or leaked password, so whoever held a session with the old one
 * must log in again. A password not given is generated and printed once; a given one never.
 * A refusal is a value (`{ ok: false, reason }`) with nothing written.
 */
import { randomBytes } from "node:crypto";
import { runTransaction } from "@service/shared/node";
import { and, eq } from "drizzle-orm";
import { hashPassword } from "../../core-api/src/crypto/passwords.ts";
import type { CoreDb } from "../../core-api/src/db/client.ts";
import { adminUsers, sessions } from "../../core-api/src/db/schema.ts";
import type { AdminIo } from "./chain-setting.ts";
import type { Refusal } from "./chain-setup.ts";

/** The shortest admin password the CLI sets (as add-admin and create-chain). */
export const MIN_ADMIN_PASSWORD_LENGTH = 8;

/** What a reset did. */
export interface PasswordReset {
  adminId: number;
  /** the admin's login sessions that were ended (0 when none was open) */
  sessionsEnded: number;
}

/**
 * Sets the password of the admin `username` (trimmed) to `password` and ends all their sessions,
 * in one transaction.
 * @returns the admin id and the number of sessions ended, or a refusal (no such admin, password
 *   shorter than MIN_ADMIN_PASSWORD_LENGTH characters) with nothing written
 */
export async function setAdminPassword(db: CoreDb, username: string, password: string): Promise<{ ok: true; reset: PasswordReset } | Refusal> {
  if (password.length < MIN_ADMIN_PASSWORD_LENGTH) return { ok: false, reason: `the admin password must be at least ${MIN_ADMIN_PASSWORD_LENGTH} characters` };
  // Hashed before the transaction: argon2id takes a while and needs no lock.
  const passwordHash = await hashPassword(password);
  return runTransaction(db, async (tx): Promise<{ ok: true; reset: PasswordReset } | Refusal> => {
    const [admin] = await tx.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.username, username.trim())).for("update");
    if (!admin) return { ok: false, reason: `there is no admin ${username.trim()}` };
    await tx.update(adminUsers).set({ passwordHash }).where(eq(adminUsers.id, admin.id));
    const [ended] = await tx.delete(sessions).where(and(eq(sessions.kind, "admin"), eq(sessions.userId, admin.id)));
    return { ok: true, reset: { adminId: admin.id, sessionsEnded: ended.affectedRows } };
  });
}

/** The command's part of `npm run admin -- --help`. */
export const SET_PASSWORD_USAGE = `  set-password  --username <username> [--password <password>]
      Sets a new password for an existing admin (a lost one cannot be read back) and ends all of
      that admin's sessions, so they log in again with the new one.`;

/**
 * Runs `set-password` with the command line's `--username` and `--password`.
 * @returns the exit status: 0 done, 1 refused (no such admin, short password; nothing written),
 *   2 no username
 */
export async function setPasswordCommand(values: { username?: string; password?: string }, io: AdminIo): Promise<number> {
  const username = values.username?.trim();
  if (!username) return io.usageError("--username is required (see --help)");
  const generated = values.password ?? randomBytes(18).toString("base64url");
  return io.withCoreDatabase(async (db) => {
    const result = await setAdminPassword(db, username, generated);
    if (!result.ok) return io.refused(result.reason);
    const { adminId, sessionsEnded } = result.reset;
    io.print(`admin ${username} (id ${adminId}): password changed; ${sessionsEnded} session${sessionsEnded === 1 ? "" : "s"} ended`);
    if (values.password === undefined) io.print(`  admin password  ${generated}  (generated: shown only now)`);
    return 0;
  });
}
