import type { InternalHandlers, RouteHandler } from "@hearth/service-kit";
import { toAuditLogEntry, type AuditLogRepository } from "./audit-log-repository";

export function createAuditLogHandlers(repository: AuditLogRepository) {
  const list: RouteHandler<"auditLogs.list"> = async ({ ctx, input }) =>
    (await repository.list({ ...input, familyId: ctx.actor.familyId })).map(toAuditLogEntry);
  return { "auditLogs.list": list };
}

/** The outbox relay's direct delivery path (no Kafka): same idempotent store as the consumer. */
export function createIngestHandlers(repository: AuditLogRepository): InternalHandlers<"audit"> {
  return { "events.ingest": ({ input }) => repository.store(input.events) };
}
