import {
  buildServiceRouter,
  createServiceServer,
  databaseReadiness,
  kafkaBrokersOf,
  type KafkaSecurity,
  type KafkaTopicSettings,
  type ServiceDeps,
} from "@hearth/service-kit";
import type { RunningConsumer } from "@hearth/service-kit/events";
import { startAuditEventConsumer } from "./audit-log/audit-event-consumer";
import { createAuditLogHandlers, createIngestHandlers } from "./audit-log/audit-log-handlers";
import { createAuditLogRepository } from "./audit-log/audit-log-repository";
import type { AuditDb } from "./db";

export interface AuditDeps extends ServiceDeps<AuditDb> {
  /** Comma-separated brokers; without them events arrive through `events.ingest` only. */
  kafkaBrokers?: string | undefined;
  /** TLS and SASL for the brokers (KAFKA_SSL*, KAFKA_SASL_*). */
  kafkaSecurity?: KafkaSecurity;
  /** Partitions, replication and min.insync.replicas of the topics it creates when missing (KAFKA_TOPIC_*). */
  kafkaTopicSettings?: KafkaTopicSettings;
  consumerGroupId?: string;
}

export function createAuditService(deps: AuditDeps) {
  const repository = createAuditLogRepository(deps.db);
  const router = buildServiceRouter("audit", createAuditLogHandlers(repository), createIngestHandlers(repository));
  const server = createServiceServer({
    service: "audit",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(deps.db),
  });
  let consumer: RunningConsumer | null = null;
  const brokers = kafkaBrokersOf(deps.kafkaBrokers);
  return {
    router,
    server,
    /** Resolves when the Kafka consumer (if any) has joined its group. */
    consumerReady: () => consumer?.ready() ?? Promise.resolve(),
    async start() {
      if (brokers.length > 0) {
        consumer = startAuditEventConsumer({
          brokers,
          ...(deps.kafkaSecurity ? { kafkaSecurity: deps.kafkaSecurity } : {}),
          ...(deps.kafkaTopicSettings ? { topicSettings: deps.kafkaTopicSettings } : {}),
          repository,
          log: deps.log,
          ...(deps.consumerGroupId ? { groupId: deps.consumerGroupId } : {}),
        });
      }
    },
    async stop() {
      await consumer?.stop();
      consumer = null;
    },
  };
}
