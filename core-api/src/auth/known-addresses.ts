/**
 * The client addresses an account has logged in from lately (login_known_address), for the login
 * throttle (auth/throttle.ts): an attempt from such an address is its owner's usual place, so the
 * account-wide pacing that failures from elsewhere build up does not hold it back (OWASP,
 * "Authentication Cheat Sheet", account lockout: let a client that logged in before through).
 * Only a successful login marks an address; a null (unknown) address is never known. Keys are
 * hashed: the account key may hold a typed username, which is sometimes a mistyped password.
 */
import { and, eq, gt, lt } from "drizzle-orm";
import { runStatement } from "@service/shared/node";
import type { CoreDb } from "../db/client.ts";
import { loginKnownAddress } from "../db/schema.ts";
import { sha256Hex } from "../crypto/secrets.ts";

/** How long a successful login keeps its address known to the account: 30 days. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 3_600_000;

/**
 * The key of `account` at `address` in login_known_address.
 * @returns null when the address is unknown (an unknown address proves nothing)
 */
export function knownAddressKey(account: string, address: string | null): string | null {
  return address === null ? null : sha256Hex(`known:${account}|${address}`);
}

/** Whether the account of `keyHash` (knownAddressKey) logged in from its address within KNOWN_ADDRESS_MS of `now`. */
export async function isKnownAddress(db: CoreDb, keyHash: string | null, now: Date): Promise<boolean> {
  if (keyHash === null) return false;
  const rows = await db
    .select({ keyHash: loginKnownAddress.keyHash })
    .from(loginKnownAddress)
    .where(and(eq(loginKnownAddress.keyHash, keyHash), gt(loginKnownAddress.knownUntil, now)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Records a successful login of the account of `keyHash` from its address: known for
 * KNOWN_ADDRESS_MS from `now`. Also deletes up to 100 entries that are over, so the table stays
 * small. One statement each; a repeated success only moves the date on.
 */
export async function rememberAddress(db: CoreDb, keyHash: string | null, now: Date): Promise<void> {
  if (keyHash === null) return;
  const knownUntil = new Date(now.getTime() + KNOWN_ADDRESS_MS);
  await runStatement(() => db.insert(loginKnownAddress).values({ keyHash, knownUntil }).onDuplicateKeyUpdate({ set: { knownUntil } }));
  await runStatement(() => db.delete(loginKnownAddress).where(lt(loginKnownAddress.knownUntil, now)).limit(100));
}
