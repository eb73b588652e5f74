import type { InternalHandlers, RouteHandler } from "@hearth/service-kit";
import type { AuditLogRepository } from "./audit-log-repository";
import { toAuditLogResource } from "./audit-log-resource";

export function createAuditLogHandlers(repository: AuditLogRepository) {
  const list: RouteHandler<"auditLogs.list"> = async ({ ctx, input }) => (await repository.list(ctx.actor.familyId, input)).map(toAuditLogResource);
  return { "auditLogs.list": list };
}

/** The outbox relay's direct delivery path (no Kafka): same idempotent store as the consumer. */
export function createIngestHandlers(repository: AuditLogRepository): InternalHandlers<"audit"> {
  return { "events.ingest": ({ input }) => repository.store(input.events) };
}
