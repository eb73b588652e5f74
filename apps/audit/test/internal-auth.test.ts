import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INTERNAL_AUTH_HEADER, createInternalSigner, createServiceClient } from "@hearth/service-kit";
import { auditEvent, contextOf, expectAppError, newActor, startAudit, type RunningAudit } from "./support";

let audit: RunningAudit;

beforeAll(async () => {
  audit = await startAudit();
});
afterAll(async () => audit?.stop());

const RELAY = { requestId: "outbox-relay-test", actor: null }; // what the gateway's outbox relay signs

/** A raw tRPC call, with or without an internal token: what reaches the service if the client is bypassed. */
async function raw(procedure: "auditLogs.list" | "events.ingest", token?: string) {
  const headers: Record<string, string> = { "content-type": "application/json", ...(token ? { [INTERNAL_AUTH_HEADER]: token } : {}) };
  const res =
    procedure === "auditLogs.list"
      ? await fetch(`${audit.url}/trpc/${procedure}?input=${encodeURIComponent("{}")}`, { headers })
      : await fetch(`${audit.url}/trpc/${procedure}`, { method: "POST", headers, body: JSON.stringify({ events: [auditEvent({ familyId: randomUUID() })] }) });
  const body = (await res.json()) as { error?: { data?: { appError?: { code?: string } } } };
  return { status: res.status, code: body.error?.data?.appError?.code };
}

describe("audit internal authentication", () => {
  it("serves calls signed by the gateway with the shared secret for this service", async () => {
    await expect(audit.call("auditLogs.list", "query", {}, contextOf(newActor()))).resolves.toEqual([]);
    await expect(audit.call("events.ingest", "mutation", { events: [auditEvent({ familyId: randomUUID() })] }, RELAY)).resolves.toEqual({
      stored: 1,
      duplicates: 0,
    });
  });

  it("refuses calls without the internal auth header with 401 unauthorized, storing nothing", async () => {
    const before = await audit.db.auditLogEntry.count();
    expect(await raw("auditLogs.list")).toEqual({ status: 401, code: "unauthorized" });
    expect(await raw("events.ingest")).toEqual({ status: 401, code: "unauthorized" });
    expect(await audit.db.auditLogEntry.count()).toBe(before);
  });

  it("refuses a token signed with another secret", async () => {
    const forged = createServiceClient({ service: "audit", url: audit.url, caller: "gateway", internalAuthSecret: randomBytes(32).toString("hex") });
    await expectAppError(forged("events.ingest", "mutation", { events: [auditEvent({ familyId: randomUUID() })] }, RELAY), "unauthorized");
    await expectAppError(forged("auditLogs.list", "query", {}, contextOf(newActor())), "unauthorized");
  });

  it("refuses a token addressed to another service", async () => {
    const misaddressed = createServiceClient({ service: "finance", url: audit.url, caller: "gateway", internalAuthSecret: audit.internalAuthSecret });
    await expectAppError(misaddressed("events.ingest", "mutation", { events: [auditEvent({ familyId: randomUUID() })] }, RELAY), "unauthorized");
  });

  it("refuses an expired token", async () => {
    const sign = createInternalSigner(audit.internalAuthSecret, "gateway");
    vi.useFakeTimers({ toFake: ["Date"] });
    let expired: string;
    try {
      vi.setSystemTime(Date.now() - 120_000); // tokens live 60 s
      expired = await sign("audit", RELAY);
    } finally {
      vi.useRealTimers();
    }
    expect(await raw("events.ingest", expired)).toEqual({ status: 401, code: "unauthorized" });
    // The same token signed now is accepted: only its age was wrong.
    expect((await raw("events.ingest", await sign("audit", RELAY))).status).toBe(200);
  });

  it("needs an acting user for the audit log, but not for ingestion (the relay acts for no one)", async () => {
    await expectAppError(audit.call("auditLogs.list", "query", {}, contextOf(null)), "unauthorized");
    await expect(audit.call("events.ingest", "mutation", { events: [auditEvent({ familyId: randomUUID() })] }, RELAY)).resolves.toMatchObject({ stored: 1 });
  });
});
