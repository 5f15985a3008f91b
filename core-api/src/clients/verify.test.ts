import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCore, type TestCore } from "../../../test/helpers/core.ts";
import { newSecret, sha256Hex } from "../crypto/secrets.ts";
import { accessTokens, serviceClients } from "../db/schema.ts";
import { insertAccessToken } from "./access-tokens.ts";
import { insertServiceClient } from "./service-clients.ts";
import { verifyAccessToken } from "./verify.ts";

let core: TestCore;
beforeAll(async () => {
  core = await startCore();
});
afterAll(() => core.close());

const now = new Date("2026-01-01T00:00:00Z");
const INVALID = { valid: false, code: "access_token_invalid" };

/** A fresh client with one token; returns the token id, its secret and the client id. */
async function issue(scope = `chain:${core.chainId}`) {
  const client = await insertServiceClient(core.db, { chainId: core.chainId, name: "POS", lastUpdatedBy: null }, now);
  const secret = newSecret();
  const id = crypto.randomUUID();
  await insertAccessToken(
    core.db,
    { id, chainId: core.chainId, serviceClientId: client.id, scope, secretHash: sha256Hex(secret), lastUpdatedBy: null },
    now,
  );
  return { id, secret, clientId: client.id };
}

describe("verifyAccessToken", () => {
  it("accepts the right secret and returns the token, its client, chain and scope fields", async () => {
    const t = await issue(`chain:${core.chainId},read_businesses:${core.chainId}`);
    expect(await verifyAccessToken(core.db, t.id, t.secret)).toEqual({
      valid: true,
      tokenId: t.id,
      serviceClientId: t.clientId,
      chainId: core.chainId,
      scopes: [
        { key: "chain", value: String(core.chainId) },
        { key: "read_businesses", value: String(core.chainId) },
      ],
    });
    // UUIDs are case-insensitive
    expect((await verifyAccessToken(core.db, t.id.toUpperCase(), t.secret)).valid).toBe(true);
  });

  it("refuses a wrong secret, the stored hash itself, an unknown id and a malformed id", async () => {
    const t = await issue();
    const [row] = await core.db.select().from(accessTokens).where(eq(accessTokens.id, t.id));
    expect(await verifyAccessToken(core.db, t.id, t.secret.slice(0, -1))).toEqual(INVALID);
    expect(await verifyAccessToken(core.db, t.id, `${t.secret}0`)).toEqual(INVALID);
    expect(await verifyAccessToken(core.db, t.id, "")).toEqual(INVALID);
    expect(await verifyAccessToken(core.db, t.id, row!.secretHash)).toEqual(INVALID);
    expect(await verifyAccessToken(core.db, crypto.randomUUID(), t.secret)).toEqual(INVALID);
    expect(await verifyAccessToken(core.db, "not-a-uuid", t.secret)).toEqual(INVALID);
    expect(await verifyAccessToken(core.db, `${t.id}x`, t.secret)).toEqual(INVALID);
    // a secret of another token does not open this one
    const other = await issue();
    expect(await verifyAccessToken(core.db, t.id, other.secret)).toEqual(INVALID);
  });

  it("refuses an inactive token, and accepts it again once re-activated (no cache)", async () => {
    const t = await issue();
    await core.db.update(accessTokens).set({ active: false }).where(eq(accessTokens.id, t.id));
    expect(await verifyAccessToken(core.db, t.id, t.secret)).toEqual(INVALID);
    await core.db.update(accessTokens).set({ active: true }).where(eq(accessTokens.id, t.id));
    expect((await verifyAccessToken(core.db, t.id, t.secret)).valid).toBe(true);
  });

  it("refuses a deleted token even if still marked active", async () => {
    const t = await issue();
    await core.db.update(accessTokens).set({ deleted: true }).where(eq(accessTokens.id, t.id));
    expect(await verifyAccessToken(core.db, t.id, t.secret)).toEqual(INVALID);
  });

  it("refuses an active token of a disabled client and of a deleted client", async () => {
    const disabled = await issue();
    await core.db.update(serviceClients).set({ enabled: false }).where(eq(serviceClients.id, disabled.clientId));
    expect(await verifyAccessToken(core.db, disabled.id, disabled.secret)).toEqual(INVALID);
    const deleted = await issue();
    await core.db.update(serviceClients).set({ deleted: true }).where(eq(serviceClients.id, deleted.clientId));
    expect(await verifyAccessToken(core.db, deleted.id, deleted.secret)).toEqual(INVALID);
  });
});
