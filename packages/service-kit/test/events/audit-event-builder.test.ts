import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AUDIT_TEXT_LIMITS, AuditEventSchema } from "@hearth/contracts";
import { buildAuditEvent, type AuditEventInput } from "../../src/events/audit-event-builder";

const input = (overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
  eventType: "auth.login.failed",
  familyId: randomUUID(),
  user: { id: randomUUID(), email: "someone@example.com" },
  request: { ipAddress: "127.0.0.1", userAgent: "Agent/1.0", requestId: "req-1" },
  action: "login",
  resource: "session",
  ...overrides,
});

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("buildAuditEvent caps the facts it records", () => {
  it("cuts an oversized user agent (and the other request facts) to their limits, marking the cut", () => {
    const event = buildAuditEvent(
      input({
        request: { ipAddress: "1".repeat(5000), userAgent: `Mozilla/5.0 ${"A".repeat(20_000)}`, requestId: "r".repeat(5000), sessionId: "s".repeat(5000) },
        error: "e".repeat(10_000),
        provider: "p".repeat(5000),
      }),
    );
    expect(event.userAgent).toHaveLength(AUDIT_TEXT_LIMITS.userAgent);
    expect(event.userAgent?.startsWith("Mozilla/5.0 AAA")).toBe(true);
    expect(event.userAgent?.endsWith("…")).toBe(true);
    expect(event.ipAddress).toHaveLength(AUDIT_TEXT_LIMITS.ipAddress);
    expect(event.requestId).toHaveLength(AUDIT_TEXT_LIMITS.requestId);
    expect(event.sessionId).toHaveLength(AUDIT_TEXT_LIMITS.sessionId);
    expect(event.error).toHaveLength(AUDIT_TEXT_LIMITS.error);
    expect(event.provider).toHaveLength(AUDIT_TEXT_LIMITS.provider);
  });

  it("never splits a surrogate pair where it cuts", () => {
    for (const pad of [0, 1]) {
      const userAgent = "x".repeat(pad) + "😀".repeat(AUDIT_TEXT_LIMITS.userAgent);
      const capped = buildAuditEvent(input({ request: { ipAddress: null, userAgent, requestId: null } })).userAgent ?? "";
      expect(capped).not.toMatch(LONE_SURROGATE);
      expect(capped.length).toBeLessThanOrEqual(AUDIT_TEXT_LIMITS.userAgent);
      expect(capped.endsWith("😀…")).toBe(true);
    }
  });

  it("keeps short facts as they are", () => {
    const event = buildAuditEvent(input());
    expect(event).toMatchObject({ userAgent: "Agent/1.0", ipAddress: "127.0.0.1", requestId: "req-1" });
  });

  it("cuts long text inside changes", () => {
    const event = buildAuditEvent(input({ eventType: "user.updated", changes: { first_name: { old: "a", new: "b".repeat(10_000) } } }));
    const changed = event.changes?.["first_name"]?.new as string;
    expect(changed).toHaveLength(AUDIT_TEXT_LIMITS.changeValue);
    expect(event.changes?.["first_name"]?.old).toBe("a");
  });

  it("keeps a whole event, every field at its limit, far below a publish call's byte budget", () => {
    const long = (n: number) => "é".repeat(n * 2);
    const event = buildAuditEvent(
      input({
        user: { id: randomUUID(), email: long(AUDIT_TEXT_LIMITS.email) },
        request: { ipAddress: long(200), userAgent: long(5000), requestId: long(500), sessionId: long(500) },
        error: long(5000),
        provider: long(500),
        changes: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field_${i}`, { old: long(2000), new: long(2000) }])),
      }),
    );
    expect(Buffer.byteLength(JSON.stringify(event))).toBeLessThan(64 * 1024);
  });
});

describe("the audit event contract refuses oversized text, so nothing oversized is ever stored", () => {
  const valid = () => buildAuditEvent(input());

  it.each(["userAgent", "ipAddress", "requestId", "sessionId", "error", "provider", "action", "resource"] as const)("%s", (field) => {
    const limit = AUDIT_TEXT_LIMITS[field];
    expect(AuditEventSchema.safeParse({ ...valid(), [field]: "x".repeat(limit) }).success).toBe(true);
    expect(AuditEventSchema.safeParse({ ...valid(), [field]: "x".repeat(limit + 1) }).success).toBe(false);
  });

  it("changes over their byte limit", () => {
    const changes = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field_${i}`, { old: "x".repeat(400), new: "y".repeat(400) }]));
    expect(AuditEventSchema.safeParse({ ...valid(), changes }).success).toBe(false);
  });
});
