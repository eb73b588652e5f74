import { AUDIT_DEAD_LETTER_TOPIC, AUDIT_TOPICS, AuditEventSchema, withStorableText, type AuditEvent } from "@hearth/contracts";
import { withSpan, type KafkaSecurity, type KafkaTopicSettings, type Logger } from "@hearth/service-kit";
import { createKafka, startKafkaConsumer, type ConsumedMessage } from "@hearth/service-kit/events";
import type { AuditLogRepository } from "./audit-log-repository";

// An event PostgreSQL cannot store (a NUL in a string) is as invalid as malformed JSON: dead-lettered, never retried forever.
const StorableAuditEventSchema = withStorableText(AuditEventSchema);

export const AUDIT_CONSUMER_GROUP = "hearth-audit";

/**
 * Consumes the audit topics and stores each event once. Offsets are committed after the
 * store, so a crash means redelivery, which the unique event id absorbs. A message that can
 * never be stored (not JSON, not a valid event, refused by the database) goes to the
 * dead-letter topic with the reason, logged, and the messages behind it go on; only failures
 * that may pass (database down) hold the partition until they do.
 */
export function startAuditEventConsumer(options: {
  brokers: string[];
  kafkaSecurity?: KafkaSecurity;
  /** How missing topics are created (KAFKA_TOPIC_*). */
  topicSettings?: KafkaTopicSettings;
  repository: AuditLogRepository;
  log: Logger;
  groupId?: string;
}) {
  const log = options.log.child({ component: "audit-consumer" });
  return startKafkaConsumer({
    kafka: createKafka(options.brokers, "hearth-audit", log, options.kafkaSecurity),
    groupId: options.groupId ?? AUDIT_CONSUMER_GROUP,
    topics: AUDIT_TOPICS,
    deadLetterTopic: AUDIT_DEAD_LETTER_TOPIC,
    ...(options.topicSettings ? { topicSettings: options.topicSettings } : {}),
    log,
    handleBatch: async (messages, deadLetter) => {
      const events: { event: AuditEvent; message: ConsumedMessage }[] = [];
      for (const message of messages) {
        const parsed = parseEvent(message.value);
        if (parsed.ok) events.push({ event: parsed.event, message });
        else deadLetter(message, parsed.error);
      }
      const result = await withSpan("audit store", { "hearth.audit.events": events.length }, () =>
        options.repository.storeEach(events.map(({ event }) => event)),
      );
      for (const { event, error } of result.refused) {
        const from = events.find((candidate) => candidate.event === event);
        if (from) deadLetter(from.message, `refused by the database: ${error}`);
      }
      log.debug({ stored: result.stored, duplicates: result.duplicates, refused: result.refused.length }, "audit events stored");
    },
  });
}

function parseEvent(value: string): { ok: true; event: AuditEvent } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch (err) {
    return { ok: false, error: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = StorableAuditEventSchema.safeParse(json);
  if (parsed.success) return { ok: true, event: parsed.data };
  const issues = parsed.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(event)"}: ${issue.message}`);
  return { ok: false, error: `not a valid audit event: ${issues.join("; ")}` };
}
