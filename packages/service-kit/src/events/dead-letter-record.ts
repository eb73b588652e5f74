import type { Message } from "kafkajs";

/** Who dead-lettered a message: the relay (the receiver refused it) or a consumer (it could not store it). */
export type DeadLetterSource = "outbox-relay" | "audit-consumer";

export interface DeadLetter {
  source: DeadLetterSource;
  key: string | null;
  /** The message as it was (JSON text of the event, or whatever bytes a consumer could not read). */
  value: string;
  headers: Record<string, string>;
  error: string;
  originalTopic: string;
  partition?: number;
  offset?: string;
  eventId?: string;
}

/** A dead-letter message's value is left out past this (it is kept in full in outbox_dead_letters or the original topic). */
export const MAX_DEAD_LETTER_VALUE_BYTES = 512 * 1024;
const MAX_ERROR_HEADER = 1000;

/**
 * The message for the dead-letter topic: the original key, value and headers as they were,
 * plus `dead-letter-*` headers saying why and where from, so an operator can read, fix and replay it.
 */
export function deadLetterMessage(letter: DeadLetter): Message {
  const valueBytes = Buffer.byteLength(letter.value);
  const tooLarge = valueBytes > MAX_DEAD_LETTER_VALUE_BYTES;
  const headers: Record<string, string> = {
    ...letter.headers,
    "dead-letter-source": letter.source,
    "dead-letter-topic": letter.originalTopic,
    "dead-letter-error": letter.error.slice(0, MAX_ERROR_HEADER),
    "dead-letter-at": new Date().toISOString(),
  };
  if (letter.partition !== undefined) headers["dead-letter-partition"] = String(letter.partition);
  if (letter.offset !== undefined) headers["dead-letter-offset"] = letter.offset;
  if (letter.eventId !== undefined) headers["event-id"] = letter.eventId;
  if (tooLarge) headers["dead-letter-value-omitted-bytes"] = String(valueBytes);
  return { key: letter.key, value: tooLarge ? null : letter.value, headers };
}
