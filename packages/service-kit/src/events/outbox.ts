import { context, propagation } from "@opentelemetry/api";
import { auditTopicOf, type AuditEvent } from "@hearth/contracts";

/** The minimal surface of a Prisma transaction client the outbox needs. */
export interface SqlExecutor {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

/**
 * SQL of the outbox table every event-producing service includes in its schema
 * (the Prisma model `OutboxEvent` maps to it). `txid` lets the relay read only rows whose
 * transactions can no longer be overtaken by a late commit (see relay.ts).
 */
export const OUTBOX_TABLE = "outbox_events";

/**
 * Writes an audit event into the outbox inside the caller's transaction, so the event exists
 * if and only if the change that caused it committed. The current trace context travels
 * with it into the Kafka message headers.
 */
export async function enqueueAuditEvent(tx: SqlExecutor, event: AuditEvent): Promise<void> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  const key = event.familyId ?? event.user?.id ?? event.eventId;
  await tx.$executeRaw`
    INSERT INTO outbox_events (event_id, topic, message_key, payload, headers)
    VALUES (${event.eventId}::uuid, ${auditTopicOf(event.eventType)}, ${key}, ${JSON.stringify(event)}::jsonb, ${JSON.stringify(headers)}::jsonb)`;
}
