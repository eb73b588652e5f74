import { AppError } from "@hearth/contracts";
import type { InternalHandlers, RouteHandler } from "@hearth/service-kit";
import type { AuditLogRepository } from "./audit-log-repository";
import { toAuditLogResource } from "./audit-log-resource";

export function createAuditLogHandlers(repository: AuditLogRepository) {
  const list: RouteHandler<"auditLogs.list"> = async ({ ctx, input }) => (await repository.list(ctx.actor.familyId, input)).map(toAuditLogResource);
  return { "auditLogs.list": list };
}

/**
 * The outbox relay's direct delivery path (no Kafka): same idempotent store as the consumer.
 * An event the database refuses fails the call as validation_failed naming it (the others of
 * the batch are stored), so the relay sets that event aside instead of retrying it forever.
 */
export function createIngestHandlers(repository: AuditLogRepository): InternalHandlers<"audit"> {
  return {
    "events.ingest": async ({ input }) => {
      const { stored, duplicates, refused } = await repository.storeEach(input.events);
      if (refused.length > 0) {
        throw new AppError("validation_failed", {
          message: "The database refused some events",
          errors: refused.map(({ event, error }) => `Event ${event.eventId} cannot be stored: ${error}`),
        });
      }
      return { stored, duplicates };
    },
  };
}
