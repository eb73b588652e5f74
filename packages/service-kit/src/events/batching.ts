import type { OutboxMessage } from "./relay";

/**
 * Bytes one relay publish call may carry. The receivers refuse more than about 1 MiB: the
 * audit service's tRPC body limit is 1 MiB, Kafka's default `message.max.bytes` (a partition's
 * record batch) about 1 MB. Half of that leaves room for envelopes, keys and headers.
 */
export const DEFAULT_MAX_BATCH_BYTES = 512 * 1024;

/** Rough wire size of a message: its JSON payload, key and headers. */
export function messageBytes(message: OutboxMessage): number {
  return Buffer.byteLength(JSON.stringify(message.payload) ?? "") + Buffer.byteLength(message.key) + Buffer.byteLength(JSON.stringify(message.headers)) + 64;
}

/**
 * Splits messages, in order, into runs of at most `maxBytes` and `maxCount` each. A message
 * larger than `maxBytes` on its own is a run of one: the receiver decides whether it takes it.
 */
export function chunkByBytes(messages: OutboxMessage[], maxBytes: number, maxCount = Infinity): OutboxMessage[][] {
  const chunks: OutboxMessage[][] = [];
  let current: OutboxMessage[] = [];
  let currentBytes = 0;
  for (const message of messages) {
    const bytes = messageBytes(message);
    if (current.length > 0 && (currentBytes + bytes > maxBytes || current.length >= maxCount)) {
      chunks.push(current);
      current = [];
      currentBytes = 0;
    }
    current.push(message);
    currentBytes += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
