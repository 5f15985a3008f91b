/** Both argon2id implementations write and read the one stored format. */
import { describe, expect, it } from "vitest";
import { hashPassword, NATIVE_HASHER, PASSWORD_HASHER, verifyPassword, WASM_HASHER } from "./passwords.ts";

describe("password hashing", () => {
  it("uses the native implementation on Node", () => {
    expect(NATIVE_HASHER).not.toBeNull();
    expect(PASSWORD_HASHER.name).toBe("native");
  });

  it("writes the same PHC format either way, and each verifies the other's hashes", async () => {
    const native = NATIVE_HASHER!;
    for (const [writer, reader] of [[native, WASM_HASHER], [WASM_HASHER, native]] as const) {
      const stored = await writer.hash("correct horse");
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
      expect(await reader.verify("correct horse", stored)).toBe(true);
      expect(await reader.verify("wrong horse", stored)).toBe(false);
    }
  });

  it("salts every hash afresh; a malformed stored hash is no match", async () => {
    const [a, b] = [await hashPassword("same"), await hashPassword("same")];
    expect(a).not.toBe(b);
    expect(await verifyPassword("same", a)).toBe(true);
    expect(await verifyPassword("same", "$argon2id$v=19$garbage")).toBe(false);
    expect(await verifyPassword("same", "")).toBe(false);
  });
});
