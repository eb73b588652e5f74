import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { createSecretBox } from "@hearth/service-kit";
import { totp } from "../src/identity/mfa/totp";

describe("secret box", () => {
  const box = createSecretBox("k".repeat(40));

  it("opens what it sealed, and seals the same value differently each time", () => {
    const sealed = box.seal("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DP");
    expect(box.open(sealed)).toBe("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP");
    expect(box.seal("same")).not.toBe(box.seal("same"));
  });

  it("refuses an altered value and a value sealed under another key", () => {
    const sealed = box.seal("client-secret");
    const parts = sealed.split(".");
    const flipped = [parts[0], parts[1], parts[2], `A${parts[3]?.slice(1)}`].join(".");
    expect(() => box.open(flipped)).toThrow();
    expect(() => createSecretBox("o".repeat(40)).open(sealed)).toThrow();
    expect(() => box.open("plain text")).toThrow("not a sealed secret");
  });

  it("fingerprints deterministically per key", () => {
    expect(box.fingerprint("abcd-efgh")).toBe(box.fingerprint("abcd-efgh"));
    expect(createSecretBox("o".repeat(40)).fingerprint("abcd-efgh")).not.toBe(box.fingerprint("abcd-efgh"));
  });
});

describe("totp", () => {
  const secret = totp.newSecret();
  const now = new Date("2026-11-23T12:00:10Z");
  const codeAt = (steps: number) => generate({ secret, epoch: Math.floor(now.getTime() / 1000) + steps * 30 });
  const currentStep = Math.floor(now.getTime() / 1000 / 30);

  it("accepts the current step and one step of drift either way, answering the matched step", async () => {
    expect(await totp.verify(secret, await codeAt(0), null, now)).toBe(currentStep);
    expect(await totp.verify(secret, await codeAt(-1), null, now)).toBe(currentStep - 1);
    expect(await totp.verify(secret, await codeAt(1), null, now)).toBe(currentStep + 1);
  });

  it("refuses two steps of drift, malformed codes, and steps already used", async () => {
    expect(await totp.verify(secret, await codeAt(-2), null, now)).toBeNull();
    expect(await totp.verify(secret, await codeAt(2), null, now)).toBeNull();
    expect(await totp.verify(secret, "12345", null, now)).toBeNull();
    expect(await totp.verify(secret, "abcdef", null, now)).toBeNull();
    expect(await totp.verify(secret, await codeAt(0), currentStep, now)).toBeNull();
    expect(await totp.verify(secret, await codeAt(1), currentStep, now)).toBe(currentStep + 1);
  });
});
