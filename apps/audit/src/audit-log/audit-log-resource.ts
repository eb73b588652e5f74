import { AuditEventTypeSchema, SeveritySchema, type AuditLogEntry } from "@hearth/contracts";
import type { AuditLogEntry as EntryRow } from "../generated/prisma/client";

/** One stored event as GET /api/v1/audit-logs shows it. */
export function toAuditLogResource(row: EntryRow): AuditLogEntry {
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
