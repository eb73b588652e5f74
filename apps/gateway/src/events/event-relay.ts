import { AUDIT_TOPICS } from "@hearth/contracts";
import { kafkaBrokersOf, type Logger, type ServiceCall } from "@hearth/service-kit";
import { AuditServicePublisher, KafkaPublisher, OutboxRelay, createKafka, ensureTopics, type EventPublisher } from "@hearth/service-kit/events";
import pg from "pg";

/**
 * The gateway's outbox relay: to Kafka when KAFKA_BROKERS is set, otherwise straight to the
 * audit service. Either way a dead broker or audit service only delays events.
 */
export async function createEventRelay(options: { databaseUrl: string; kafkaBrokers: string | undefined; callAudit: ServiceCall; log: Logger }) {
  const brokers = kafkaBrokersOf(options.kafkaBrokers);
  let publisher: EventPublisher;
  if (brokers.length > 0) {
    const kafka = createKafka(brokers, "hearth-gateway", options.log);
    await ensureTopics(kafka, AUDIT_TOPICS).catch((err: unknown) => options.log.warn({ err }, "could not create audit topics yet; the producer will retry"));
    publisher = new KafkaPublisher(kafka);
  } else {
    publisher = new AuditServicePublisher(options.callAudit);
  }
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  const relay = new OutboxRelay({ pool, publisher, log: options.log.child({ component: "outbox-relay" }) });
  return {
    relay,
    publisherName: publisher.name,
    async stop() {
      await relay.stop();
      await publisher.close();
      await pool.end();
    },
  };
}
