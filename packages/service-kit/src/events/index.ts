export { enqueueAuditEvent, OUTBOX_TABLE, type SqlExecutor } from "./outbox";
export { OutboxRelay, type EventPublisher, type OutboxMessage, type OutboxRelayOptions } from "./relay";
export { KafkaPublisher, createKafka, ensureTopics, startKafkaConsumer, type ConsumedMessage, type KafkaConsumerOptions, type RunningConsumer } from "./kafka";
export { buildAuditEvent, type AuditEventInput } from "./audit-event-builder";
export { AuditServicePublisher } from "./audit-service-publisher";
