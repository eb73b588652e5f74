import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createInternalSigner, createInternalVerifier } from "../../src/internal-auth";

const SECRET = "s".repeat(48);
const actor = { userId: randomUUID(), familyId: randomUUID(), role: "admin" as const, scopes: ["read" as const], authMethod: "api_key" as const };

describe("internal auth", () => {
  it("reuses one token per actor for half its life, the request id beside it", async () => {
    const sign = createInternalSigner(SECRET, "gateway");
    const verify = createInternalVerifier(SECRET, "finance");
    const t0 = Date.now();
    const first = await sign("finance", { requestId: "req-1", actor }, t0);
    const second = await sign("finance", { requestId: "req-2", actor }, t0 + 29_000);
    const [token1, token2] = [first.split(";")[0], second.split(";")[0]];
    expect(token2).toBe(token1);
    expect(await verify(first)).toEqual({ caller: "gateway", actor, requestId: "req-1" });
    expect(await verify(second)).toEqual({ caller: "gateway", actor, requestId: "req-2" });
    // Past half its life a new one is signed; another actor or audience has its own.
    expect((await sign("finance", { requestId: "r", actor }, t0 + 31_000)).split(";")[0]).not.toBe(token1);
    expect((await sign("finance", { requestId: "r", actor: { ...actor, role: "member" } }, t0)).split(";")[0]).not.toBe(token1);
    expect((await sign("audit", { requestId: "r", actor }, t0)).split(";")[0]).not.toBe(token1);
  });

  it("refuses a token for another audience, a forged one, and a bad request id, even after a good one was verified", async () => {
    const sign = createInternalSigner(SECRET, "gateway");
    const header = await sign("finance", { requestId: "ok", actor });
    await createInternalVerifier(SECRET, "finance")(header);
    await expect(createInternalVerifier(SECRET, "audit")(header)).rejects.toThrow();
    await expect(createInternalVerifier("x".repeat(48), "finance")(header)).rejects.toThrow();
    const [token] = header.split(";");
    await expect(createInternalVerifier(SECRET, "finance")(`${token}; request-id=bad id with spaces`)).rejects.toThrow();
    await expect(createInternalVerifier(SECRET, "finance")(`${token}x; request-id=ok`)).rejects.toThrow();
  });

  it("stops trusting a verified token from memory once it expires", async () => {
    const sign = createInternalSigner(SECRET, "gateway");
    const verify = createInternalVerifier(SECRET, "finance");
    const header = await sign("finance", { requestId: "r", actor });
    expect((await verify(header)).actor).toEqual(actor);
    // 70 s on (60 s of life, 5 s of tolerance): jose itself must refuse it again.
    await expect(verify(header, Date.now() + 70_000)).rejects.toThrow();
  });
});
