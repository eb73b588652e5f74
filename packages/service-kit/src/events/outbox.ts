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
 * Writes audit events into the outbox inside the caller's transaction, so they exist if and only
 * if the change that caused them committed, in the order given (one statement for all of them).
 * The current trace context travels with them into the Kafka message headers.
 */
export async function enqueueAuditEvents(tx: SqlExecutor, events: readonly AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const headers = JSON.stringify(carrier);
  await tx.$executeRaw`
    INSERT INTO outbox_events (event_id, topic, message_key, payload, headers)
    SELECT event_id, topic, message_key, payload, ${headers}::jsonb
      FROM unnest(${events.map((event) => event.eventId)}::uuid[], ${events.map((event) => auditTopicOf(event.eventType))}::text[],
                  ${events.map((event) => event.familyId ?? event.user?.id ?? event.eventId)}::text[],
                  ${events.map((event) => JSON.stringify(event))}::jsonb[])
           WITH ORDINALITY AS e(event_id, topic, message_key, payload, position)
     ORDER BY position`;
}

/** One audit event: see enqueueAuditEvents. */
export async function enqueueAuditEvent(tx: SqlExecutor, event: AuditEvent): Promise<void> {
  await enqueueAuditEvents(tx, [event]);
}
