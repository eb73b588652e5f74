import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SERVICE_NAMES } from "@hearth/contracts";
import { createInternalSigner, createServiceClient } from "@hearth/service-kit";
import { contextOf, expectAppError, newActor, startServiceUnderTest, type ServiceUnderTest } from "../service-harness";
import { contextFor, expectAnswer, isPublic, kindOf } from "./procedure-case";
import { rawCall } from "./raw-call";
import type { Disconnectable, ServedParts, ServiceBasics } from "./service-basics";

const REFUSED = { status: 401, code: "unauthorized" };

/** The service's side of internal authentication: only the gateway's signed, current, well-formed tokens for it get through. */
export function describeInternalAuth<Db extends Disconnectable, Parts extends ServedParts>(basics: ServiceBasics<Db, Parts>): void {
  const { service, procedures } = basics;
  const publicOnes = procedures.filter(isPublic);
  let running: ServiceUnderTest<Db, Parts>;

  /** Runs refused calls and checks that they stored nothing. */
  async function storingNothing(refused: () => Promise<void>) {
    const before = await basics.countRows(running.db);
    await refused();
    expect(await basics.countRows(running.db)).toBe(before);
  }

  /** A client signing like the gateway, with another secret or for another audience than this service's. */
  function clientFor(options: { secret?: string; audience?: string }) {
    const { secret = running.internalAuthSecret, audience = service } = options;
    return createServiceClient({ service: audience, url: running.url, caller: "gateway", internalAuthSecret: secret });
  }

  describe(`${service} internal authentication`, () => {
    beforeAll(async () => {
      running = await startServiceUnderTest(basics);
    });
    afterAll(async () => running?.stop());

    it("serves calls signed by the gateway with the shared secret for this service", async () => {
      for (const c of procedures) expectAnswer(c, await running.call(c.procedure, kindOf(c), c.input(), contextFor(c)));
    });

    it("refuses calls without the internal auth header with 401 unauthorized, storing nothing", async () => {
      await storingNothing(async () => {
        for (const c of procedures) expect(await rawCall(running.url, c), c.procedure).toEqual(REFUSED);
      });
    });

    it("refuses a token signed with another secret", async () => {
      const forged = clientFor({ secret: randomBytes(32).toString("hex") });
      await storingNothing(async () => {
        for (const c of procedures) await expectAppError(forged(c.procedure, kindOf(c), c.input(), contextFor(c)), "unauthorized");
      });
    });

    it("refuses a token addressed to another service", async () => {
      await storingNothing(async () => {
        for (const audience of SERVICE_NAMES.filter((name) => name !== service)) {
          const misaddressed = clientFor({ audience });
          for (const c of procedures) await expectAppError(misaddressed(c.procedure, kindOf(c), c.input(), contextFor(c)), "unauthorized");
        }
      });
    });

    it("refuses an expired token", async () => {
      const sign = createInternalSigner(running.internalAuthSecret, "gateway");
      vi.useFakeTimers({ toFake: ["Date"] });
      let expired: string[];
      try {
        vi.setSystemTime(Date.now() - 120_000); // tokens live 60 s
        expired = await Promise.all(procedures.map((c) => sign(service, contextFor(c))));
      } finally {
        vi.useRealTimers();
      }
      await storingNothing(async () => {
        for (const [i, c] of procedures.entries()) expect(await rawCall(running.url, c, expired[i]), c.procedure).toEqual(REFUSED);
      });
      // The same token signed now is accepted: only its age was wrong.
      for (const c of procedures) expect((await rawCall(running.url, c, await sign(service, contextFor(c)))).status, c.procedure).toBe(200);
    });

    it("checks the route's access itself: a read-only API key gets only what the route allows, even with a valid token", async () => {
      const reader = newActor({ scopes: ["read"], authMethod: "api_key" });
      for (const c of publicOnes) {
        const call = () => running.call(c.procedure, kindOf(c), c.input(), contextOf(reader));
        const refusal = c.refusesReadOnlyKey;
        if (refusal) await storingNothing(async () => void (await expectAppError(call(), refusal)));
        else expectAnswer(c, await call());
      }
    });

    it("refuses a valid token that carries no acting user for a public route", async () => {
      await storingNothing(async () => {
        for (const c of publicOnes) await expectAppError(running.call(c.procedure, kindOf(c), c.input(), contextOf(null)), "unauthorized");
      });
    });

    it("refuses a signed context whose actor is malformed", async () => {
      const sign = createInternalSigner(running.internalAuthSecret, "gateway");
      const token = await sign(service, { requestId: "r", actor: { ...newActor(), familyId: "not-a-uuid" } });
      await storingNothing(async () => {
        for (const c of procedures) expect(await rawCall(running.url, c, token), c.procedure).toEqual(REFUSED);
      });
    });
  });
}
