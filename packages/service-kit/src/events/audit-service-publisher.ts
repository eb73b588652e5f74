import { AUDIT_INGEST_MAX_EVENTS, AppError, type AuditEvent, type ErrorCode } from "@hearth/contracts";
import type { ServiceCall } from "../trpc/service-client";
import type { EventPublisher, OutboxMessage } from "./relay";

/** The audit service's answers that refuse what a batch holds (an invalid event, a body too large): resending it can never work. */
const REFUSALS: ReadonlySet<ErrorCode> = new Set(["validation_failed", "payload_too_large", "bad_request"]);

export function isRefusedByAuditService(err: unknown): boolean {
  return err instanceof AppError && REFUSALS.has(err.code);
}

/**
 * The embedded default (no KAFKA_BROKERS): the relay hands audit events straight to the
 * audit service's `events.ingest`, which stores them idempotently by event id, exactly as
 * its Kafka consumer does. A down audit service only delays delivery; an event it refuses
 * is found by the relay (by halving the batch) and dead-lettered.
 */
export class AuditServicePublisher implements EventPublisher {
  readonly name = "audit-service";
  /** events.ingest takes at most 500 events a call: the relay reads more at a time. */
  readonly maxMessagesPerCall = AUDIT_INGEST_MAX_EVENTS;

  constructor(private readonly callAudit: ServiceCall) {}

  async publish(messages: OutboxMessage[]): Promise<void> {
    await this.callAudit(
      "events.ingest",
      "mutation",
      { events: messages.map((m) => m.payload as AuditEvent) },
      { requestId: `outbox-relay-${messages[0]?.eventId ?? "empty"}`, actor: null },
    );
  }

  isPermanentRejection(err: unknown): boolean {
    return isRefusedByAuditService(err);
  }

  async close(): Promise<void> {}
}
