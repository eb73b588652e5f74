import type { AuditEvent, QueryOf } from "@hearth/contracts";
import type { AuditDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { isDataRefusal, refusalText } from "./store-refusal";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toRow(event: AuditEvent): Prisma.AuditLogEntryCreateManyInput {
  return {
    eventId: event.eventId,
    familyId: event.familyId,
    eventType: event.eventType,
    severity: event.severity,
    occurredAt: new Date(event.occurredAt),
    userId: event.user?.id ?? null,
    userEmail: event.user?.email ?? null,
    provider: event.provider,
    providerId: event.providerId,
    ipAddress: event.ipAddress,
    userAgent: event.userAgent,
    sessionId: event.sessionId,
    requestId: event.requestId,
    error: event.error,
    changes: (event.changes as Prisma.InputJsonValue | null) ?? undefined,
    action: event.action,
    resource: event.resource,
  };
}

/** An event the database refused for its data, with the database's reason. */
export interface RefusedEvent {
  event: AuditEvent;
  error: string;
}

export function createAuditLogRepository(db: AuditDb) {
  /** Stores events once each: a redelivered event id is skipped (ON CONFLICT DO NOTHING). */
  async function store(events: AuditEvent[]) {
    if (events.length === 0) return { stored: 0, duplicates: 0 };
    const { count } = await db.auditLogEntry.createMany({ data: events.map(toRow), skipDuplicates: true });
    return { stored: count, duplicates: events.length - count };
  }

  return {
    store,

    /**
     * Stores what the database takes, in one statement while it takes them all; when it refuses
     * the data of a batch, each event alone, so one bad event never holds back the others.
     * Returns the refused events; throws only for failures that may pass (database down).
     */
    async storeEach(events: AuditEvent[]): Promise<{ stored: number; duplicates: number; refused: RefusedEvent[] }> {
      try {
        return { ...(await store(events)), refused: [] };
      } catch (err) {
        if (!isDataRefusal(err)) throw err;
      }
      const outcome = { stored: 0, duplicates: 0, refused: [] as RefusedEvent[] };
      for (const event of events) {
        try {
          const { stored, duplicates } = await store([event]);
          outcome.stored += stored;
          outcome.duplicates += duplicates;
        } catch (err) {
          if (!isDataRefusal(err)) throw err;
          outcome.refused.push({ event, error: refusalText(err) });
        }
      }
      return outcome;
    },

    /** Newest first, scoped to the caller's family, with the spec's filters. */
    list(familyId: string, filter: QueryOf<"auditLogs.list">) {
      const occurredAt: Prisma.DateTimeFilter = {};
      if (filter.startDate) occurredAt.gte = new Date(filter.startDate);
      if (filter.endDate) occurredAt.lte = new Date(filter.endDate);
      return db.auditLogEntry.findMany({
        where: {
          familyId,
          ...(filter.startDate || filter.endDate ? { occurredAt } : {}),
          ...(filter.eventType ? { eventType: filter.eventType } : {}),
          ...(filter.userId ? { userId: filter.userId } : {}),
          // The spec filters by provider id; a provider's name (or "local") works too.
          ...(filter.provider ? (UUID.test(filter.provider) ? { providerId: filter.provider } : { provider: filter.provider }) : {}),
        },
        orderBy: [{ occurredAt: "desc" }, { id: "desc" }],
        skip: filter.offset,
        take: filter.limit,
      });
    },
  };
}
export type AuditLogRepository = ReturnType<typeof createAuditLogRepository>;
