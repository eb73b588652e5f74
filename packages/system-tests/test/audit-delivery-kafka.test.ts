import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Kafka, logLevel, type Consumer } from "kafkajs";
import { AUDIT_DEAD_LETTER_TOPIC, auditTopicOf } from "@hearth/contracts";
import { buildAuditEvent } from "@hearth/service-kit/events";
import { describeWithKafka, testPostgresAdminUrl } from "@hearth/test-kit";
import {
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  expectAuditEntries,
  pendingOutboxCount,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
} from "../src";

describeWithKafka("audit delivery through Kafka past events that can never be delivered", (brokers) => {
  let system: TestSystem;
  let api: ApiClient;
  let reader: Consumer;
  const deadLetters: { key: string | undefined; value: string | null; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    system = await startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers });
    api = apiClient(system.url);
    expect(system.gateway.publisherName).toBe("kafka");
    reader = new Kafka({ clientId: "dead-letter-reader", brokers: brokers.split(","), logLevel: logLevel.NOTHING }).consumer({
      groupId: `dead-letter-reader-${randomUUID()}`,
    });
    await reader.connect();
    await reader.subscribe({ topic: AUDIT_DEAD_LETTER_TOPIC, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) =>
        void deadLetters.push({
          key: message.key?.toString(),
          value: message.value?.toString() ?? null,
          headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)])),
        }),
    });
  });
  afterAll(async () => {
    await reader?.disconnect();
    await system?.stop();
  });

  it("dead-letters an event over the broker's message size (relay) and an invalid one (consumer), and delivers the events behind them", async () => {
    const user = await signUpUser(api, "kafka-poison");
    const { familyId } = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: user.id } });
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);
    const valid = () =>
      buildAuditEvent({
        eventType: "auth.login.success",
        familyId,
        user: { id: user.id, email: user.email },
        request: { ipAddress: "127.0.0.1", userAgent: "Poison/1.0", requestId: null },
        action: "login",
        resource: "session",
      });
    // Over Kafka's default message.max.bytes (about 1 MB) on its own: the broker refuses it.
    const tooLarge = { ...valid(), userAgent: "x".repeat(1_200_000) };
    // Kafka takes it; the audit consumer cannot store it.
    const invalid = { ...valid(), eventId: randomUUID(), eventType: "auth.nope" };

    await system.gateway.relay.stop();
    try {
      for (const event of [tooLarge, invalid]) {
        await system.db.gateway.$executeRaw`
          INSERT INTO outbox_events (event_id, topic, message_key, payload)
          VALUES (${event.eventId}::uuid, ${auditTopicOf("auth.login.success")}, ${familyId}, ${JSON.stringify(event)}::jsonb)`;
      }
      for (let i = 0; i < 3; i++) {
        // Another device: a login on DEVICE would end the sign-up's session, which reads the log below.
        expect((await api.post("/api/v1/auth/login", { email: user.email, password: TEST_PASSWORD, device: SECOND_DEVICE })).status).toBe(200);
      }
    } finally {
      system.gateway.relay.start();
    }

    await expectAuditEntries(api, user.accessToken, "eventType=auth.login.success", 3, 60_000);
    await expect.poll(() => pendingOutboxCount(system), { timeout: 30_000 }).toBe(0);

    // The relay's dead letter: in the gateway's table, with the broker's error.
    const [row, ...others] = await system.db.gateway.outboxDeadLetter.findMany();
    expect(others).toEqual([]);
    expect(row).toMatchObject({ eventId: tooLarge.eventId, topic: "hearth.audit.auth", messageKey: familyId });
    expect(row?.error).toMatch(/MESSAGE_TOO_LARGE/);

    // Both on the dead-letter topic, keyed by family, saying who refused them and why.
    await expect.poll(() => deadLetters.filter((letter) => letter.key === familyId).length, { timeout: 30_000, interval: 200 }).toBe(2);
    const fromRelay = deadLetters.find((letter) => letter.headers["event-id"] === tooLarge.eventId);
    expect(fromRelay?.headers).toMatchObject({ "dead-letter-source": "outbox-relay", "dead-letter-topic": "hearth.audit.auth" });
    expect(fromRelay?.headers["dead-letter-error"]).toMatch(/MESSAGE_TOO_LARGE/);
    // Too large for Kafka as it is: the letter says so; the event is kept whole in outbox_dead_letters.
    expect(fromRelay?.value).toBeNull();
    expect(Number(fromRelay?.headers["dead-letter-value-omitted-bytes"])).toBeGreaterThan(1_200_000);
    const fromConsumer = deadLetters.find((letter) => letter.key === familyId && letter.headers["dead-letter-source"] === "audit-consumer");
    expect(JSON.parse(fromConsumer?.value ?? "{}")).toMatchObject({ eventId: invalid.eventId, eventType: "auth.nope" });
    expect(fromConsumer?.headers["dead-letter-error"]).toMatch(/eventType/);
    expect(await system.db.audit.auditLogEntry.count({ where: { eventId: { in: [tooLarge.eventId, invalid.eventId] } } })).toBe(0);
  }, 120_000);
});
