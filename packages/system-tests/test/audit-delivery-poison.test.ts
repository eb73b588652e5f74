import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_TEXT_LIMITS, auditTopicOf, type AuditEvent } from "@hearth/contracts";
import { buildAuditEvent } from "@hearth/service-kit/events";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  eventually,
  expectAuditEntries,
  pendingOutboxCount,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
} from "../src";

// Without Kafka: the gateway's relay hands events straight to the audit service's events.ingest.
describe("audit delivery past oversized and invalid events (no Kafka)", () => {
  let system: TestSystem;
  let api: ApiClient;
  const logLines: string[] = [];

  beforeAll(async () => {
    system = await startSystem({ adminUrl: testPostgresAdminUrl(), logLevel: "error", logDestination: { write: (line: string) => void logLines.push(line) } });
    api = apiClient(system.url);
    expect(system.gateway.publisherName).toBe("audit-service");
  });
  afterAll(async () => system?.stop());

  /** Writes an event into the gateway's outbox as it is, as a gateway of another version (or a bug) might have. */
  async function writeRawOutboxEvent(event: { eventId: string; familyId: string | null }) {
    await system.db.gateway.$executeRaw`
      INSERT INTO outbox_events (event_id, topic, message_key, payload)
      VALUES (${event.eventId}::uuid, ${auditTopicOf("auth.login.success")}, ${event.familyId ?? event.eventId}, ${JSON.stringify(event)}::jsonb)`;
  }
  const familyOf = async (userId: string) => (await system.db.gateway.membership.findUniqueOrThrow({ where: { userId } })).familyId;

  it("delivers a backlog of events with huge User-Agent headers, recorded capped (their batch was over the 1 MiB body limit)", async () => {
    const user = await signUpUser(api, "agent");
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);
    const userAgent = `HugeAgent/1.0 ${"a".repeat(12_000)}`;

    // A backlog, as after an audit service outage: 50 logins, 100 events of about 12 KB each.
    await system.gateway.relay.stop();
    try {
      for (let i = 0; i < 50; i++) {
        const res = await api.post(
          "/api/v1/auth/login",
          // Another device: a login on DEVICE would end the sign-up's session, which reads the log below.
          { email: user.email, password: TEST_PASSWORD, device: SECOND_DEVICE },
          { headers: { "user-agent": userAgent } },
        );
        expect(res.status).toBe(200);
      }
    } finally {
      system.gateway.relay.start();
    }

    const entries = await expectAuditEntries(api, user.accessToken, "eventType=auth.login.success&limit=100", 50, 60_000);
    for (const entry of entries) {
      expect(entry["userAgent"]).toHaveLength(AUDIT_TEXT_LIMITS.userAgent);
      expect(entry["userAgent"]).toMatch(/^HugeAgent\/1\.0 a+…$/);
    }
    await expect.poll(() => pendingOutboxCount(system), { timeout: 30_000 }).toBe(0);
    expect(await system.db.gateway.outboxDeadLetter.count()).toBe(0);
  }, 120_000);

  it("moves events the audit service refuses to outbox_dead_letters, with the error and an error log, and delivers the events behind them", async () => {
    const user = await signUpUser(api, "poison");
    const familyId = await familyOf(user.id);
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);
    const valid = (): AuditEvent =>
      buildAuditEvent({
        eventType: "auth.login.success",
        familyId,
        user: { id: user.id, email: user.email },
        request: { ipAddress: "127.0.0.1", userAgent: "Poison/1.0", requestId: null },
        action: "login",
        resource: "session",
      });
    const invalidType = { ...valid(), eventId: randomUUID(), eventType: "auth.nope" };
    const oversized = { ...valid(), eventId: randomUUID(), userAgent: "x".repeat(5000) }; // written before the caps existed

    await system.gateway.relay.stop();
    try {
      await writeRawOutboxEvent(invalidType);
      await writeRawOutboxEvent(oversized);
      for (let i = 0; i < 3; i++) {
        expect((await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: SECOND_DEVICE })).status).toBe(200);
      }
    } finally {
      system.gateway.relay.start();
    }

    await expectAuditEntries(api, user.accessToken, "eventType=auth.login.success", 3);
    await expect.poll(() => pendingOutboxCount(system), { timeout: 30_000 }).toBe(0);
    const deadLetters = await system.db.gateway.outboxDeadLetter.findMany({ orderBy: { id: "asc" } });
    expect(deadLetters.map((letter) => letter.eventId)).toEqual([invalidType.eventId, oversized.eventId]);
    expect(deadLetters[0]).toMatchObject({ topic: "hearth.audit.auth", messageKey: familyId, payload: invalidType });
    expect(deadLetters[0]?.error).toMatch(/eventType/i);
    expect(deadLetters[1]?.error).toMatch(/512/);
    expect(await system.gateway.relay.deadLetterCount()).toBe(2);
    await eventually(async () => {
      const errors = logLines.map((line) => JSON.parse(line) as { level: number; event_id?: string; msg: string });
      for (const letter of deadLetters) expect(errors).toContainEqual(expect.objectContaining({ level: 50, event_id: letter.eventId }));
    });
  });
});
