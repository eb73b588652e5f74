import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLogListSchema, type Actor, type AuditEvent, type AuditLogEntry } from "@hearth/contracts";
import { auditEvent, contextOf, expectAppError, newActor, startAudit, type RunningAudit } from "./support";

let audit: RunningAudit;
const admin = newActor();
const member = newActor({ familyId: admin.familyId, role: "member" });
const outsider = newActor(); // another family
const at = (hour: number) => new Date(Date.UTC(2026, 0, 1, hour));
let events: AuditEvent[]; // the family's events, oldest first

beforeAll(async () => {
  audit = await startAudit();
  const adminUser = { id: admin.userId, email: "admin@example.com" };
  const memberUser = { id: member.userId, email: "member@example.com" };
  events = [
    auditEvent({ familyId: admin.familyId, user: adminUser, eventType: "auth.token.issued", occurredAt: at(1) }),
    auditEvent({ familyId: admin.familyId, user: memberUser, eventType: "auth.login.success", occurredAt: at(2) }),
    auditEvent({ familyId: admin.familyId, user: adminUser, eventType: "auth.login.failed", occurredAt: at(3), error: "invalid_password" }),
    auditEvent({ familyId: admin.familyId, user: adminUser, eventType: "provider.updated", occurredAt: at(4), provider: "google" }),
    auditEvent({ familyId: admin.familyId, user: memberUser, eventType: "auth.login.success", occurredAt: at(5) }),
  ];
  // Stored out of order, with another family's event at the same times.
  const others = [at(3), at(6)].map((occurredAt) =>
    auditEvent({ familyId: outsider.familyId, user: { id: outsider.userId, email: "out@example.com" }, occurredAt }),
  );
  await audit.call(
    "events.ingest",
    "mutation",
    { events: [events[3], events[0], ...others, events[4], events[2], events[1]] },
    { requestId: "seed", actor: null },
  );
});
afterAll(async () => audit?.stop());

const list = async (actor: Actor, query: Record<string, unknown> = {}) =>
  AuditLogListSchema.parse(await audit.call("auditLogs.list", "query", query, contextOf(actor)));
/** The positions (oldest = 0) in `events` of the entries listed. */
const positions = (entries: AuditLogEntry[]) => entries.map((entry) => events.findIndex((event) => event.requestId === entry.requestId));

describe("audit auditLogs.list", () => {
  it("lists the family's events newest first, in the entry shape", async () => {
    const entries = await list(admin);
    expect(positions(entries)).toEqual([4, 3, 2, 1, 0]);
    expect(entries[2]).toMatchObject({
      timestamp: at(3).toISOString(),
      eventType: "auth.login.failed",
      severity: "warning",
      user: { id: admin.userId, email: "admin@example.com" },
      error: "invalid_password",
      ipAddress: "127.0.0.1",
      userAgent: "HearthTest/1.0",
    });
  });

  it("scopes by the family of the signed context, and checks the route's access itself", async () => {
    // Defence in depth: the service refuses what the gateway would have refused.
    await expectAppError(audit.call("auditLogs.list", "query", {}, contextOf(member)), "forbidden");
    await expectAppError(audit.call("auditLogs.list", "query", {}, contextOf({ ...admin, authMethod: "api_key" })), "forbidden");
    const theirs = await list(outsider);
    expect(theirs.map((entry) => entry.timestamp)).toEqual([at(6).toISOString(), at(3).toISOString()]);
    expect(await list(newActor())).toEqual([]);
    expect(await list(outsider, { userId: admin.userId })).toEqual([]);
  });

  it("filters by event type, user and provider", async () => {
    expect(positions(await list(admin, { eventType: "auth.login.success" }))).toEqual([4, 1]);
    expect(positions(await list(admin, { userId: member.userId }))).toEqual([4, 1]);
    expect(positions(await list(admin, { userId: admin.userId, eventType: "auth.token.issued" }))).toEqual([0]);
    expect(positions(await list(admin, { provider: "google" }))).toEqual([3]);
  });

  it("filters by startDate and endDate, both inclusive", async () => {
    expect(positions(await list(admin, { startDate: at(2).toISOString(), endDate: at(4).toISOString() }))).toEqual([3, 2, 1]);
    expect(positions(await list(admin, { startDate: at(4).toISOString() }))).toEqual([4, 3]);
    expect(positions(await list(admin, { endDate: at(1).toISOString() }))).toEqual([0]);
  });

  it("pages with limit and offset", async () => {
    expect(positions(await list(admin, { limit: 2 }))).toEqual([4, 3]);
    expect(positions(await list(admin, { limit: 2, offset: 2 }))).toEqual([2, 1]);
    expect(positions(await list(admin, { limit: 2, offset: 4 }))).toEqual([0]);
    expect(await list(admin, { offset: 5 })).toEqual([]);
  });

  it("answers validation_failed for bad filters", async () => {
    const bad = [
      { limit: 0 },
      { limit: 101 },
      { offset: -1 },
      { startDate: "yesterday" },
      { eventType: "auth.nope" },
      { userId: "abc" },
      { startDate: at(5).toISOString(), endDate: at(1).toISOString() },
    ];
    for (const query of bad) await expectAppError(list(admin, query), "validation_failed");
  });

  it("compares startDate and endDate as instants, not as strings", async () => {
    // 10:00 in Tokyo is 01:00 UTC, before 03:30 UTC: a valid range holding the events of 01:00, 02:00 and 03:00.
    expect(positions(await list(admin, { startDate: "2026-01-01T10:00:00+09:00", endDate: "2026-01-01T03:30:00Z" }))).toEqual([2, 1, 0]);
    // Half a second after 03:00 is after 03:00.
    expect(positions(await list(admin, { startDate: "2026-01-01T03:00:00Z", endDate: "2026-01-01T03:00:00.500Z" }))).toEqual([2]);
  });
});
