import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { auditTopicOf, type AuditEvent } from "@hearth/contracts";
import { createLogger } from "@hearth/service-kit";
import { KafkaPublisher, createKafka, type OutboxMessage } from "@hearth/service-kit/events";
import { describeWithKafka } from "@hearth/test-kit";
import { auditEvent, startAudit, type RunningAudit } from "./support";

describeWithKafka("audit service consuming a real Kafka broker", (brokers) => {
  let audit: RunningAudit;
  let publisher: KafkaPublisher;
  let rawProducer: Producer;

  beforeAll(async () => {
    audit = await startAudit({ brokers, consumerGroupId: `hearth-audit-test-${randomUUID()}` });
    publisher = new KafkaPublisher(createKafka(brokers.split(","), "audit-test-publisher", createLogger("audit-test", "silent")));
    rawProducer = new Kafka({ clientId: "audit-test-raw", brokers: brokers.split(","), logLevel: logLevel.NOTHING }).producer();
    await rawProducer.connect();
  });
  afterAll(async () => {
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

  it("stores a published event once even when it is published twice, and skips invalid messages without blocking the ones after them", async () => {
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
  });

  it("consumes the topic of every event family, not only auth", async () => {
    const event = auditEvent({ familyId: randomUUID(), eventType: "provider.created", provider: "google" });
    expect(auditTopicOf(event.eventType)).toBe("hearth.audit.provider");
    await publish(event);
    await expect.poll(() => storedCount(event), { timeout: 30_000, interval: 200 }).toBe(1);
  });
});
