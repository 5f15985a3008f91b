import { describe, expect, it } from "vitest";
import { lazySecretBox, openSecretBox, SecretBoxError } from "./secret-box.ts";

const KEY = "k".repeat(44);

describe("secret box (AES-256-GCM under SERVICE_SECRET_KEY)", () => {
  it("opens what it sealed, for the same purpose, with a fresh IV each time", async () => {
    const box = await openSecretBox(KEY);
    const a = await box.seal("whsec_ünïcode", "webhook.secret");
    const b = await box.seal("whsec_ünïcode", "webhook.secret");
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("whsec");
    expect(await box.open(a, "webhook.secret")).toBe("whsec_ünïcode");
    expect(await box.open(await box.seal("", "x"), "x")).toBe("");
  });

  it("refuses another key, another purpose, an altered byte and garbage", async () => {
    const box = await openSecretBox(KEY);
    const sealed = await box.seal("secret", "webhook.secret");
    const other = await openSecretBox("o".repeat(44));
    await expect(other.open(sealed, "webhook.secret")).rejects.toThrow(SecretBoxError);
    await expect(box.open(sealed, "chain.integration_token")).rejects.toThrow(SecretBoxError);
    const body = sealed.slice(3);
    const flipped = `v1.${body.slice(0, 20)}${body[20] === "A" ? "B" : "A"}${body.slice(21)}`;
    await expect(box.open(flipped, "webhook.secret")).rejects.toThrow(SecretBoxError);
    for (const bad of ["", "v1.", "v2." + body, "v1.!!!", `v1.${body}.x`, "v1.AAAA"]) {
      await expect(box.open(bad, "webhook.secret")).rejects.toThrow(SecretBoxError);
    }
  });

  it("refuses a key shorter than 32 characters", async () => {
    await expect(openSecretBox("short")).rejects.toThrow(RangeError);
  });
});

describe("lazySecretBox", () => {
  it("opens the box on the first call and answers the same box after", async () => {
    const box = lazySecretBox(KEY);
    const first = await box();
    expect(await box()).toBe(first);
    expect(await first.open(await (await openSecretBox(KEY)).seal("s", "p"), "p")).toBe("s");
  });

  it("rejects without a key, and as openSecretBox does for a short one", async () => {
    await expect(lazySecretBox(undefined)()).rejects.toThrow(/SERVICE_SECRET_KEY is not set/);
    await expect(lazySecretBox("short")()).rejects.toThrow(RangeError);
  });
});
