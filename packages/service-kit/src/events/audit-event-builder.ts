import { randomUUID } from "node:crypto";
import { AUDIT_EVENT_SEVERITY, AuditEventSchema, type AuditEvent, type AuditEventType } from "@hearth/contracts";

export interface AuditEventInput {
  eventType: AuditEventType;
  familyId: string | null;
  user: { id: string; email: string } | null;
  request: { ipAddress: string | null; userAgent: string | null; requestId: string | null; sessionId?: string | null };
  action: string;
  resource: string;
  provider?: string | null;
  providerId?: string | null;
  error?: string | null;
  changes?: AuditEvent["changes"];
  occurredAt?: Date;
}

/** The one place that stamps id, severity (from the spec's table), time and request facts onto an audit event. */
export function buildAuditEvent(input: AuditEventInput): AuditEvent {
  return AuditEventSchema.parse({
    version: 1,
    eventId: randomUUID(),
    eventType: input.eventType,
    severity: AUDIT_EVENT_SEVERITY[input.eventType],
    occurredAt: (input.occurredAt ?? new Date()).toISOString(),
    familyId: input.familyId,
    user: input.user,
    provider: input.provider ?? null,
    providerId: input.providerId ?? null,
    ipAddress: input.request.ipAddress,
    userAgent: input.request.userAgent,
    sessionId: input.request.sessionId ?? null,
    requestId: input.request.requestId,
    error: input.error ?? null,
    changes: input.changes ?? null,
    action: input.action,
    resource: input.resource,
  });
}
