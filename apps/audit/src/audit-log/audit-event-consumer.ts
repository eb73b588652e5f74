import { AUDIT_TOPICS, AuditEventSchema, withoutNul, type AuditEvent } from "@hearth/contracts";

// An event PostgreSQL cannot store (a NUL in a string) is as invalid as malformed JSON: skipped, never retried forever.
const StorableAuditEventSchema = withoutNul(AuditEventSchema);
import type { Logger } from "@hearth/service-kit";
import { createKafka, startKafkaConsumer } from "@hearth/service-kit/events";
import type { AuditLogRepository } from "./audit-log-repository";

export const AUDIT_CONSUMER_GROUP = "hearth-audit";

/**
 * Consumes the audit topics and stores each event once. Offsets are committed after the
 * store, so a crash means redelivery, which the unique event id absorbs. A message that is
 * not a valid event can never become one: it is logged in full and skipped, not retried forever.
 */
export function startAuditEventConsumer(options: { brokers: string[]; repository: AuditLogRepository; log: Logger; groupId?: string }) {
  const log = options.log.child({ component: "audit-consumer" });
  return startKafkaConsumer({
    kafka: createKafka(options.brokers, "hearth-audit", log),
    groupId: options.groupId ?? AUDIT_CONSUMER_GROUP,
    topics: AUDIT_TOPICS,
    log,
    handleBatch: async (messages) => {
      const events: AuditEvent[] = [];
      for (const message of messages) {
        const parsed = StorableAuditEventSchema.safeParse(safeJson(message.value));
        if (parsed.success) events.push(parsed.data);
        else
          log.error(
            { topic: message.topic, partition: message.partition, offset: message.offset, value: message.value, issues: parsed.error.issues },
            "skipping invalid audit event",
          );
      }
      const result = await options.repository.store(events);
      log.debug(result, "audit events stored");
    },
  });
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
