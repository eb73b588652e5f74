import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Kafka, logLevel, type Consumer, type Producer } from "kafkajs";
import { AUDIT_DEAD_LETTER_TOPIC, auditTopicOf, type AuditEvent } from "@hearth/contracts";
import { createLogger } from "@hearth/service-kit";
import { KafkaPublisher, createKafka, type OutboxMessage } from "@hearth/service-kit/events";
import { describeWithKafka } from "@hearth/test-kit";
import { auditEvent, startAudit, type RunningAudit } from "./support";

describeWithKafka("audit service consuming a real Kafka broker", (brokers) => {
  let audit: RunningAudit;
  let publisher: KafkaPublisher;
  let rawProducer: Producer;
  let deadLetterReader: Consumer;
  const deadLetters: { key: string | undefined; value: string | undefined; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    audit = await startAudit({ brokers, consumerGroupId: `hearth-audit-test-${randomUUID()}` });
    publisher = new KafkaPublisher(createKafka(brokers.split(","), "audit-test-publisher", createLogger("audit-test", "silent")));
    rawProducer = new Kafka({ clientId: "audit-test-raw", brokers: brokers.split(","), logLevel: logLevel.NOTHING }).producer();
    await rawProducer.connect();
    // Everything on the dead-letter topic while this file runs (other files' letters have other keys).
    deadLetterReader = new Kafka({ clientId: "audit-test-dlt-reader", brokers: brokers.split(","), logLevel: logLevel.NOTHING }).consumer({
      groupId: `audit-test-dlt-reader-${randomUUID()}`,
    });
    await deadLetterReader.connect();
    await deadLetterReader.subscribe({ topic: AUDIT_DEAD_LETTER_TOPIC, fromBeginning: true });
    await deadLetterReader.run({
      eachMessage: async ({ message }) =>
        void deadLetters.push({
          key: message.key?.toString(),
          value: message.value?.toString(),
          headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)])),
        }),
    });
  });
  afterAll(async () => {
    await deadLetterReader?.disconnect();
    await rawProducer?.disconnect();
    await publisher?.close();
    await audit?.stop();
  });

  /** Publishes events as the gateway's outbox relay does: keyed by family, to the event family's topic. */
  const publish = (...events: AuditEvent[]) =>
    publisher.publish(
      events.map((event, i): OutboxMessage => ({
        id: BigInt(i),
        eventId: event.eventId,
        topic: auditTopicOf(event.eventType),
        key: event.familyId ?? event.eventId,
        payload: event,
        headers: {},
      })),
    );
  const storedCount = (...events: { eventId: string }[]) => audit.db.auditLogEntry.count({ where: { eventId: { in: events.map((event) => event.eventId) } } });

  const deadLettersOf = (key: string) => deadLetters.filter((letter) => letter.key === key);

  it("stores a published event once even when it is published twice, and dead-letters invalid messages without blocking the ones after them", async () => {
    const familyId = randomUUID();
    const first = auditEvent({ familyId });
    const notAnEvent = { ...auditEvent({ familyId }), eventType: "auth.nope" };
    const last = auditEvent({ familyId, eventType: "auth.token.issued" });

    // One partition (same key), in this order: first, garbage, an invalid event, first again, last.
    await publish(first);
    await rawProducer.send({
      topic: "hearth.audit.auth",
      messages: [
        { key: familyId, value: "{not json" },
        { key: familyId, value: JSON.stringify(notAnEvent) },
      ],
    });
    await publish(first);
    await publish(last);

    await expect.poll(() => storedCount(last), { timeout: 30_000, interval: 200 }).toBe(1);
    expect(await storedCount(first)).toBe(1);
    expect(await storedCount(notAnEvent)).toBe(0);
    expect(await audit.db.auditLogEntry.findUniqueOrThrow({ where: { eventId: last.eventId } })).toMatchObject({
      familyId,
      eventType: "auth.token.issued",
      requestId: last.requestId,
    });
    // Both refused messages are on the dead-letter topic, as they were, with why and where from.
    await expect.poll(() => deadLettersOf(familyId).length, { timeout: 30_000, interval: 200 }).toBe(2);
    const [garbage, invalid] = deadLettersOf(familyId);
    expect(garbage).toMatchObject({ value: "{not json", headers: { "dead-letter-source": "audit-consumer", "dead-letter-topic": "hearth.audit.auth" } });
    expect(garbage?.headers["dead-letter-error"]).toMatch(/JSON/i);
    expect(garbage?.headers["dead-letter-offset"]).toMatch(/^\d+$/);
    expect(invalid).toMatchObject({ value: JSON.stringify(notAnEvent) });
    expect(invalid?.headers["dead-letter-error"]).toMatch(/eventType/);
  });

  it("stores each event of a drain the relay sends again once (its marks were lost between publish and commit)", async () => {
    const familyId = randomUUID();
    const events = Array.from({ length: 300 }, (_, i) => auditEvent({ familyId, eventType: i % 2 === 0 ? "auth.login.success" : "auth.logout" }));
    // The relay's drain: batches of 100; its session dies before the marks commit, so the next drain sends the first 200 again with the rest.
    for (let i = 0; i < 200; i += 100) await publish(...events.slice(i, i + 100));
    for (let i = 0; i < 300; i += 100) await publish(...events.slice(i, i + 100));
    await expect.poll(() => storedCount(...events), { timeout: 30_000, interval: 200 }).toBe(300);
    // One key, one partition: the last 100 are behind the copies, so the copies were consumed too.
    // Every event once, none lost, none twice, whatever batch of the consumer the copies fell in.
    const stored = await audit.db.auditLogEntry.findMany({ where: { familyId }, select: { eventId: true } });
    expect(stored).toHaveLength(300);
    expect(new Set(stored.map((row) => row.eventId))).toEqual(new Set(events.map((event) => event.eventId)));
  });

  it("dead-letters an event the database refuses and stores the rest of its batch", async () => {
    // A refusal no retry can cure, made by the real database (a constraint only this test adds). The
    // value is this run's own: a fresh consumer group re-reads earlier runs' messages from the shared topics.
    const refusedAgent = `refused-by-db-${randomUUID()}`;
    await audit.db.$executeRawUnsafe(`ALTER TABLE audit_log_entries ADD CONSTRAINT test_refuses CHECK (user_agent IS DISTINCT FROM '${refusedAgent}')`);
    try {
      const familyId = randomUUID();
      const before = auditEvent({ familyId });
      const refused = auditEvent({ familyId, request: { ipAddress: null, userAgent: refusedAgent, requestId: null } });
      const after = auditEvent({ familyId, eventType: "auth.logout" });
      await publish(before, refused, after);
      await expect.poll(() => storedCount(before, after), { timeout: 30_000, interval: 200 }).toBe(2);
      await expect.poll(() => deadLettersOf(familyId).length, { timeout: 30_000, interval: 200 }).toBe(1);
      expect(await storedCount(refused)).toBe(0);
      expect(deadLettersOf(familyId)[0]).toMatchObject({ value: JSON.stringify(refused), headers: { "event-id": refused.eventId } });
    } finally {
      await audit.db.$executeRawUnsafe(`ALTER TABLE audit_log_entries DROP CONSTRAINT test_refuses`);
    }
  });

  it("consumes the topic of every event family, not only auth", async () => {
    const event = auditEvent({ familyId: randomUUID(), eventType: "provider.created", provider: "google" });
    expect(auditTopicOf(event.eventType)).toBe("hearth.audit.provider");
    await publish(event);
    await expect.poll(() => storedCount(event), { timeout: 30_000, interval: 200 }).toBe(1);
  });
});
