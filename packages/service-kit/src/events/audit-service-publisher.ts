import type { AuditEvent } from "@hearth/contracts";
import type { ServiceCall } from "../trpc/service-client";
import type { EventPublisher, OutboxMessage } from "./relay";

/**
 * The embedded default (no KAFKA_BROKERS): the relay hands audit events straight to the
 * audit service's `events.ingest`, which stores them idempotently by event id, exactly as
 * its Kafka consumer does. A down audit service only delays delivery.
 */
export class AuditServicePublisher implements EventPublisher {
  readonly name = "audit-service";

  constructor(private readonly callAudit: ServiceCall) {}

  async publish(messages: OutboxMessage[]): Promise<void> {
    await this.callAudit(
      "events.ingest",
      "mutation",
      { events: messages.map((m) => m.payload as AuditEvent) },
      { requestId: `outbox-relay-${messages[0]?.eventId ?? "empty"}`, actor: null },
    );
  }

  async close(): Promise<void> {}
}
