import { randomUUID } from "node:crypto";
import { AUDIT_EVENT_SEVERITY, AUDIT_TEXT_LIMITS, AuditEventSchema, capChanges, truncateText, type AuditEvent, type AuditEventType } from "@hearth/contracts";

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

type TextField = keyof typeof AUDIT_TEXT_LIMITS;
const capped = (field: TextField, text: string | null | undefined): string | null =>
  text === null || text === undefined ? null : truncateText(text, AUDIT_TEXT_LIMITS[field]);

/**
 * The one place that stamps id, severity (from the spec's table), time and request facts onto
 * an audit event. Text is cut to the contract's limits (a client's 16 KiB User-Agent is
 * recorded as its first 511 characters and "…"), so no event outgrows a receiver's limits.
 */
export function buildAuditEvent(input: AuditEventInput): AuditEvent {
  return AuditEventSchema.parse({
    version: 1,
    eventId: randomUUID(),
    eventType: input.eventType,
    severity: AUDIT_EVENT_SEVERITY[input.eventType],
    occurredAt: (input.occurredAt ?? new Date()).toISOString(),
    familyId: input.familyId,
    user: input.user && { id: input.user.id, email: capped("email", input.user.email) },
    provider: capped("provider", input.provider),
    providerId: input.providerId ?? null,
    ipAddress: capped("ipAddress", input.request.ipAddress),
    userAgent: capped("userAgent", input.request.userAgent),
    sessionId: capped("sessionId", input.request.sessionId),
    requestId: capped("requestId", input.request.requestId),
    error: capped("error", input.error),
    changes: input.changes ? capChanges(input.changes) : null,
    action: capped("action", input.action),
    resource: capped("resource", input.resource),
  });
}
