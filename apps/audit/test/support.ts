import { randomUUID } from "node:crypto";
import type { AuditEvent } from "@hearth/contracts";
import { buildAuditEvent, type AuditEventInput } from "@hearth/service-kit/events";
import { startServiceUnderTest, type ServiceBasics, type ServiceUnderTest } from "@hearth/test-kit";
import { createAuditService } from "../src/app";
import { MIGRATIONS_DIR, createAuditDb, type AuditDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningAudit = ServiceUnderTest<AuditDb, ReturnType<typeof createAuditService>>;

/** How the kit builds audit (without Kafka). */
export const auditUnderTest = { service: "audit", migrationsDir: MIGRATIONS_DIR, createDb: createAuditDb, create: createAuditService } as const;

/** What the kit's shared health and internal-auth suites call on audit. */
export const auditBasics: ServiceBasics<AuditDb, RunningAudit["parts"]> = {
  ...auditUnderTest,
  procedures: [
    { procedure: "auditLogs.list", input: () => ({}), answer: { toEqual: [] }, refusesReadOnlyKey: "forbidden" },
    // The outbox relay's delivery path: an internal procedure, called for no one.
    { procedure: "events.ingest", input: () => ({ events: [auditEvent({ familyId: randomUUID() })] }), answer: { toEqual: { stored: 1, duplicates: 0 } } },
  ],
  countRows: (db) => db.auditLogEntry.count(),
};

/**
 * The audit service on a fresh, migrated database, listening on a free port; with Kafka
 * brokers, its consumer runs under a consumer group of its own and has joined it.
 */
export async function startAudit(kafka?: { brokers: string; consumerGroupId: string }): Promise<RunningAudit> {
  const audit = await startServiceUnderTest({
    ...auditUnderTest,
    create: (deps) => createAuditService({ ...deps, kafkaBrokers: kafka?.brokers, ...(kafka ? { consumerGroupId: kafka.consumerGroupId } : {}) }),
  });
  await audit.parts.consumerReady();
  return audit;
}

/** A valid audit event as the gateway builds it (fresh event id), for the given family and user. */
export function auditEvent(overrides: Partial<AuditEventInput> & { familyId: string }): AuditEvent {
  return buildAuditEvent({
    eventType: "auth.login.success",
    user: { id: randomUUID(), email: "someone@example.com" },
    request: { ipAddress: "127.0.0.1", userAgent: "HearthTest/1.0", requestId: `req-${randomUUID()}` },
    action: "login",
    resource: "session",
    ...overrides,
  });
}
