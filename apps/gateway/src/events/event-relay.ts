import { AUDIT_DEAD_LETTER_TOPIC, AUDIT_TOPICS } from "@hearth/contracts";
import { kafkaBrokersOf, type KafkaSecurity, type KafkaTopicSettings, type Logger, type ServiceCall } from "@hearth/service-kit";
import { AuditServicePublisher, KafkaPublisher, OutboxRelay, createKafka, ensureTopics, type EventPublisher } from "@hearth/service-kit/events";
import pg from "pg";

/**
 * The gateway's outbox relay: to Kafka when KAFKA_BROKERS is set, otherwise straight to the
 * audit service. Either way a dead broker or audit service only delays events, and an event
 * the receiver refuses for good moves to `outbox_dead_letters` (and, with Kafka, the
 * dead-letter topic) instead of blocking the rest. Every gateway instance runs one; they
 * take turns through a claim on the database, so each event goes out once, in order.
 */
export async function createEventRelay(options: {
  databaseUrl: string;
  kafkaBrokers: string | undefined;
  kafkaSecurity?: KafkaSecurity;
  /** How missing topics are created (KAFKA_TOPIC_*); the defaults suit one broker. */
  topicSettings?: KafkaTopicSettings;
  callAudit: ServiceCall;
  log: Logger;
}) {
  const brokers = kafkaBrokersOf(options.kafkaBrokers);
  let publisher: EventPublisher;
  if (brokers.length > 0) {
    const kafka = createKafka(brokers, "hearth-gateway", options.log, options.kafkaSecurity);
    await ensureTopics(kafka, [...AUDIT_TOPICS, AUDIT_DEAD_LETTER_TOPIC], options.topicSettings, options.log).catch((err: unknown) =>
      options.log.warn({ err }, "could not create audit topics yet; the producer will retry"),
    );
    publisher = new KafkaPublisher(kafka, { deadLetterTopic: AUDIT_DEAD_LETTER_TOPIC });
  } else {
    publisher = new AuditServicePublisher(options.callAudit);
  }
  // One connection holds the claim while a batch is published; the other serves stall checks and purges.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2, application_name: "hearth-outbox-relay" });
  // An idle connection the server ends (a PostgreSQL restart) is an 'error' on the pool, which drops
  // it; unheard, it would end the process (the reliability suite saw the gateway die so).
  pool.on("error", (err) => options.log.warn({ err }, "an idle outbox relay connection failed; the next drain opens another"));
  const relay = new OutboxRelay({ pool, publisher, log: options.log.child({ component: "outbox-relay" }) });
  return {
    relay,
    publisherName: publisher.name,
    /** Events waiting in outbox_dead_letters (for metrics and health reports). */
    deadLetterCount: () => relay.deadLetterCount(),
    async stop() {
      await relay.stop();
      await publisher.close();
      await pool.end();
    },
  };
}
