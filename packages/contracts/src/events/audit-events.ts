import { z } from "zod";
import { TimestampSchema, UuidSchema } from "../primitives";
import { AUDIT_CHANGES_MAX_BYTES, AUDIT_TEXT_LIMITS, utf8Bytes } from "./audit-limits";

export * from "./audit-limits";

/** Spec section 6: every SSO audit event type with its severity. */
export const AUDIT_EVENT_SEVERITY = {
  "auth.login.success": "info",
  "auth.login.failed": "warning",
  "auth.logout": "info",
  "auth.token.issued": "info",
  "auth.token.refreshed": "info",
  "auth.token.revoked": "warning",
  "auth.session.expired": "info",
  "provider.created": "info",
  "provider.updated": "info",
  "provider.deleted": "warning",
  "provider.enabled": "info",
  "provider.disabled": "warning",
  "provider.test": "info",
  "user.created": "info",
  "user.updated": "info",
  "user.suspended": "warning",
  "user.reactivated": "info",
  "user.deleted": "warning",
  /** Beyond the spec's list: an admin asked for the family's financial data to be reset (DELETE /api/v1/users/reset). */
  "user.data_reset": "warning",
  "user.roles.synced": "info",
  "user.roles.updated": "info",
  "account.connected": "info",
  "account.disconnected": "warning",
  "account.linked": "info",
  "account.unlinked": "warning",
} as const;

export type AuditEventType = keyof typeof AUDIT_EVENT_SEVERITY;
export const AuditEventTypeSchema = z.enum(Object.keys(AUDIT_EVENT_SEVERITY) as [AuditEventType, ...AuditEventType[]]);
export const SeveritySchema = z.enum(["info", "warning", "error", "critical"]);
export type Severity = z.infer<typeof SeveritySchema>;

/** The event family is the part before the first dot; each family has its own Kafka topic. */
export const AUDIT_EVENT_FAMILIES = ["auth", "provider", "user", "account"] as const;
export type AuditEventFamily = (typeof AUDIT_EVENT_FAMILIES)[number];

export function auditTopicOf(eventType: AuditEventType): string {
  return `hearth.audit.${eventType.split(".")[0] as AuditEventFamily}`;
}
export const AUDIT_TOPICS = AUDIT_EVENT_FAMILIES.map((family) => `hearth.audit.${family}`);
/**
 * Where an audit event that can never be delivered or stored goes, with the error in its
 * headers: the gateway's relay (refused at publish) and the audit consumer (refused at store).
 */
export const AUDIT_DEAD_LETTER_TOPIC = "hearth.audit.dead-letters";

export const ChangesSchema = z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() }));
export type AuditChanges = z.infer<typeof ChangesSchema>;

/** The event's fields as stored and listed: entries written before the caps below may be longer. */
const StoredAuditEventSchema = z.object({
  version: z.literal(1),
  eventId: UuidSchema,
  eventType: AuditEventTypeSchema,
  severity: SeveritySchema,
  occurredAt: TimestampSchema,
  familyId: UuidSchema.nullable(),
  user: z.object({ id: UuidSchema, email: z.string() }).nullable(),
  provider: z.string().nullable(),
  /** The SSO provider's id, for provider and SSO events (absent in events written before it existed). */
  providerId: UuidSchema.nullable().default(null),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  sessionId: z.string().nullable(),
  requestId: z.string().nullable(),
  error: z.string().nullable(),
  changes: ChangesSchema.nullable(),
  action: z.string(),
  resource: z.string(),
});

const text = (field: keyof typeof AUDIT_TEXT_LIMITS) =>
  z.string().max(AUDIT_TEXT_LIMITS[field], { message: `must be at most ${AUDIT_TEXT_LIMITS[field]} characters` });

/**
 * An audit event as stored in the outbox, sent over Kafka and kept by the audit service.
 * Versioned because it outlives the code that wrote it. Its text is capped (AUDIT_TEXT_LIMITS;
 * buildAuditEvent cuts to fit) so one event can never outgrow a receiver's limits.
 */
export const AuditEventSchema = StoredAuditEventSchema.extend({
  user: z.object({ id: UuidSchema, email: text("email") }).nullable(),
  provider: text("provider").nullable(),
  ipAddress: text("ipAddress").nullable(),
  userAgent: text("userAgent").nullable(),
  sessionId: text("sessionId").nullable(),
  requestId: text("requestId").nullable(),
  error: text("error").nullable(),
  changes: ChangesSchema.refine((changes) => utf8Bytes(JSON.stringify(changes)) <= AUDIT_CHANGES_MAX_BYTES, {
    message: `must be at most ${AUDIT_CHANGES_MAX_BYTES} bytes as JSON`,
  }).nullable(),
  action: text("action"),
  resource: text("resource"),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

/**
 * One entry of GET /api/v1/audit-logs (spec section 6 shape): the stored event's public fields.
 * Picked, not omitted, so a field added to events reaches the API only when listed here.
 */
export const AuditLogEntrySchema = z.object({
  id: UuidSchema,
  timestamp: TimestampSchema,
  ...StoredAuditEventSchema.pick({
    eventType: true,
    severity: true,
    user: true,
    provider: true,
    providerId: true,
    ipAddress: true,
    userAgent: true,
    sessionId: true,
    requestId: true,
    error: true,
    changes: true,
    action: true,
    resource: true,
  }).shape,
  // Stored entries always carry it; the default only serves events written before it existed.
  providerId: StoredAuditEventSchema.shape.providerId.unwrap(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntrySchema>;

export const AuditLogQuerySchema = z
  .object({
    startDate: z.iso.datetime({ offset: true, message: "startDate must be an ISO 8601 timestamp" }).optional(),
    endDate: z.iso.datetime({ offset: true, message: "endDate must be an ISO 8601 timestamp" }).optional(),
    eventType: AuditEventTypeSchema.optional(),
    userId: UuidSchema.optional(),
    provider: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100, { message: "limit must be at most 100" }).default(50),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((q) => !q.startDate || !q.endDate || Date.parse(q.startDate) <= Date.parse(q.endDate), { message: "startDate must not be after endDate" });

export const AuditLogListSchema = z.array(AuditLogEntrySchema);
