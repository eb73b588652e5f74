import { counter, scrapedGauge, type Sample } from "./registry";

export const consumedMessagesTotal = counter({
  name: "kafka_consumer_messages_total",
  help: "Kafka messages handled by a consumer (stored or dead-lettered), by consumer group and topic",
  labelNames: ["group", "topic"] as const,
});

export const consumerDeadLetteredTotal = counter({
  name: "kafka_consumer_dead_lettered_total",
  help: "Kafka messages a consumer could never handle and set aside (dead-letter topic or log), by consumer group and topic",
  labelNames: ["group", "topic"] as const,
});

export type LagLabel = "group" | "topic" | "partition";
const lagSources = new Map<object, () => Promise<Sample<LagLabel>[]>>();

scrapedGauge({
  name: "kafka_consumer_lag",
  help: "Messages a consumer group has yet to commit, per partition (the partition's end offset minus the group's committed offset), read from the broker at scrape time",
  labelNames: ["group", "topic", "partition"] as const,
  timeoutMs: 3000,
  async collect() {
    const all = await Promise.all([...lagSources.values()].map((read) => read()));
    return all.flat();
  },
});

/** Reports a consumer group's lag, read by `read` at scrape time, until the returned function is called. */
export function registerConsumerLag(owner: object, read: () => Promise<Sample<LagLabel>[]>): () => void {
  lagSources.set(owner, read);
  return () => void lagSources.delete(owner);
}

/**
 * A partition's lag from its offsets as the broker reports them: the end offset minus the
 * committed offset; with nothing committed yet (the group reads from the beginning), the end
 * minus the start (what retention kept).
 */
export function lagOf(offsets: { high: string; low: string }, committed: string | undefined): number {
  const high = Number(offsets.high);
  const from = committed === undefined || Number(committed) < 0 ? Number(offsets.low) : Number(committed);
  return Math.max(0, high - from);
}
