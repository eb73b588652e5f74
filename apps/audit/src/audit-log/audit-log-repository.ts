import { AuditEventTypeSchema, SeveritySchema, type AuditEvent, type AuditLogEntry } from "@hearth/contracts";
import type { AuditDb } from "../db";
import type { AuditLogEntry as EntryRow, Prisma } from "../generated/prisma/client";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AuditLogFilter {
  familyId: string;
  startDate?: string | undefined;
  endDate?: string | undefined;
  eventType?: string | undefined;
  userId?: string | undefined;
  provider?: string | undefined;
  limit: number;
  offset: number;
}

export function toAuditLogEntry(row: EntryRow): AuditLogEntry {
  return {
    id: row.id,
    timestamp: row.occurredAt.toISOString(),
    eventType: AuditEventTypeSchema.parse(row.eventType),
    severity: SeveritySchema.parse(row.severity),
    user: row.userId && row.userEmail ? { id: row.userId, email: row.userEmail } : null,
    provider: row.provider,
    providerId: row.providerId,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    sessionId: row.sessionId,
    requestId: row.requestId,
    error: row.error,
    changes: (row.changes as AuditLogEntry["changes"]) ?? null,
    action: row.action,
    resource: row.resource,
  };
}

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

export function createAuditLogRepository(db: AuditDb) {
  return {
    /** Stores events once each: a redelivered event id is skipped (ON CONFLICT DO NOTHING). */
    async store(events: AuditEvent[]): Promise<{ stored: number; duplicates: number }> {
      if (events.length === 0) return { stored: 0, duplicates: 0 };
      const { count } = await db.auditLogEntry.createMany({ data: events.map(toRow), skipDuplicates: true });
      return { stored: count, duplicates: events.length - count };
    },

    /** Newest first, scoped to the caller's family, with the spec's filters. */
    list(filter: AuditLogFilter) {
      const occurredAt: Prisma.DateTimeFilter = {};
      if (filter.startDate) occurredAt.gte = new Date(filter.startDate);
      if (filter.endDate) occurredAt.lte = new Date(filter.endDate);
      return db.auditLogEntry.findMany({
        where: {
          familyId: filter.familyId,
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
