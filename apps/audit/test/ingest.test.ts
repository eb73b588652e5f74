import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "@hearth/contracts";
import { auditEvent, contextOf, expectAppError, newActor, startAudit, type RunningAudit } from "./support";

let audit: RunningAudit;

beforeAll(async () => {
  audit = await startAudit();
});
afterAll(async () => audit?.stop());

const ingest = (events: unknown[]) =>
  audit.call("events.ingest", "mutation", { events }, { requestId: "outbox-relay-test", actor: null }) as Promise<{ stored: number; duplicates: number }>;
const countOf = (events: AuditEvent[]) => audit.db.auditLogEntry.count({ where: { eventId: { in: events.map((e) => e.eventId) } } });

describe("audit events.ingest", () => {
  it("refuses a context that acts for a user: only the relay's service-to-service calls may ingest", async () => {
    const event = auditEvent({ familyId: randomUUID() });
    await expectAppError(audit.call("events.ingest", "mutation", { events: [event] }, contextOf(newActor())), "forbidden");
    expect(await countOf([event])).toBe(0);
  });

  it("stores a batch with every field of the event", async () => {
    const familyId = randomUUID();
    const events = [
      auditEvent({ familyId, eventType: "auth.login.failed", error: "invalid_password" }),
      auditEvent({ familyId, eventType: "provider.updated", provider: "google", changes: { enabled: { old: false, new: true } } }),
    ];
    expect(await ingest(events)).toEqual({ stored: 2, duplicates: 0 });
    const [failed, updated] = events as [AuditEvent, AuditEvent];
    const row = await audit.db.auditLogEntry.findUniqueOrThrow({ where: { eventId: failed.eventId } });
    expect(row).toMatchObject({
      familyId,
      eventType: "auth.login.failed",
      severity: "warning",
      occurredAt: new Date(failed.occurredAt),
      userId: failed.user?.id,
      userEmail: failed.user?.email,
      ipAddress: "127.0.0.1",
      userAgent: "HearthTest/1.0",
      requestId: failed.requestId,
      error: "invalid_password",
      action: "login",
      resource: "session",
    });
    expect(await audit.db.auditLogEntry.findUniqueOrThrow({ where: { eventId: updated.eventId } })).toMatchObject({
      provider: "google",
      changes: { enabled: { old: false, new: true } },
    });
  });

  it("reports a re-delivered batch as duplicates and stores nothing twice", async () => {
    const events = [auditEvent({ familyId: randomUUID() }), auditEvent({ familyId: randomUUID() })];
    expect(await ingest(events)).toEqual({ stored: 2, duplicates: 0 });
    expect(await ingest(events)).toEqual({ stored: 0, duplicates: 2 });
    const fresh = auditEvent({ familyId: randomUUID() });
    expect(await ingest([...events, fresh])).toEqual({ stored: 1, duplicates: 2 });
    expect(await countOf([...events, fresh])).toBe(3);
  });

  it("stores an event repeated inside one batch once", async () => {
    const event = auditEvent({ familyId: randomUUID() });
    expect(await ingest([event, event])).toEqual({ stored: 1, duplicates: 1 });
    expect(await countOf([event])).toBe(1);
  });

  it("refuses an empty batch, a batch over 500 events, and a batch with an invalid event, storing none of it", async () => {
    await expectAppError(ingest([]), "validation_failed");
    const tooMany = Array.from({ length: 501 }, () => auditEvent({ familyId: randomUUID() }));
    await expectAppError(ingest(tooMany), "validation_failed");
    const good = auditEvent({ familyId: randomUUID() });
    const error = await expectAppError(ingest([good, { ...auditEvent({ familyId: randomUUID() }), eventType: "auth.nope" }]), "validation_failed");
    expect(error.errors?.join(" ")).toMatch(/eventType/);
    expect(await countOf([good, ...tooMany])).toBe(0);
  });

  it("refuses an event PostgreSQL cannot store (a NUL character) as validation_failed, not as an internal error", async () => {
    const unstorable = auditEvent({ familyId: randomUUID(), request: { ipAddress: null, userAgent: "Agent\u0000", requestId: null } });
    await expectAppError(ingest([unstorable]), "validation_failed");
  });

  it("refuses an event the database will not store as validation_failed naming it, so the relay can set it aside; the rest of the batch is stored", async () => {
    // A refusal no retry can cure, made by the real database (a constraint only this test adds).
    await audit.db.$executeRawUnsafe(`ALTER TABLE audit_log_entries ADD CONSTRAINT test_refuses CHECK (user_agent IS DISTINCT FROM 'refused-by-db')`);
    try {
      const good = auditEvent({ familyId: randomUUID() });
      const refused = auditEvent({ familyId: randomUUID(), request: { ipAddress: null, userAgent: "refused-by-db", requestId: null } });
      const error = await expectAppError(ingest([good, refused]), "validation_failed");
      expect(error.errors).toEqual([expect.stringContaining(refused.eventId)]);
      expect(await countOf([good])).toBe(1);
      expect(await countOf([refused])).toBe(0);
      // Idempotent by event id: the good event, sent again on its own, is a duplicate.
      expect(await ingest([good])).toEqual({ stored: 0, duplicates: 1 });
    } finally {
      await audit.db.$executeRawUnsafe(`ALTER TABLE audit_log_entries DROP CONSTRAINT test_refuses`);
    }
  });

  it("refuses an event with text over the contract's limits (the relay dead-letters it; nothing oversized is stored)", async () => {
    const oversized = { ...auditEvent({ familyId: randomUUID() }), userAgent: "x".repeat(10_000) };
    const error = await expectAppError(ingest([oversized]), "validation_failed");
    expect(error.errors?.join(" ")).toMatch(/512/);
    expect(await countOf([oversized])).toBe(0);
  });
});
