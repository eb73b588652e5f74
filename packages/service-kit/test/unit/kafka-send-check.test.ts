import type { Kafka, PartitionerArgs, ProducerBatch, ProducerConfig, RecordMetadata } from "kafkajs";
import { describe, expect, it } from "vitest";
import { KafkaSendIncompleteError, checkedProducer, partitionsNotAnswered } from "../../src/events/kafka";

const partitionMetadata = [0, 1, 2].map((partitionId) => ({
  partitionId,
  leader: partitionId + 1,
  replicas: [1, 2, 3],
  isr: [1, 2, 3],
  partitionErrorCode: 0,
}));
const answer = (topicName: string, partition: number): RecordMetadata => ({ topicName, partition, errorCode: 0, baseOffset: "0" });

/**
 * A stand-in for kafkajs: sendBatch partitions every message with the producer's partitioner, as
 * kafkajs does on each attempt, and answers for the partitions `answered` lets through (kafkajs's
 * retry after a leader moved answers for fewer than it was sent to: tulios/kafkajs#1303).
 */
function fakeKafka(answered: (partitions: { topic: string; partition: number }[]) => { topic: string; partition: number }[]) {
  const sends: ProducerBatch[] = [];
  const kafka = {
    producer: (config: ProducerConfig) => ({
      async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
        sends.push(batch);
        const partitioner = config.createPartitioner!();
        const reached = new Map<string, { topic: string; partition: number }>();
        for (const { topic, messages } of batch.topicMessages ?? []) {
          for (const message of messages) {
            const partition = partitioner({ topic, partitionMetadata, message } as PartitionerArgs);
            reached.set(`${topic}/${partition}`, { topic, partition });
          }
        }
        return answered([...reached.values()]).map(({ topic, partition }) => answer(topic, partition));
      },
    }),
  } as unknown as Kafka;
  return { kafka, sends };
}

const batch: ProducerBatch = {
  acks: -1,
  topicMessages: [
    { topic: "hearth.audit.user", messages: ["family-a", "family-b", "family-c", "family-d", "family-e", "family-f"].map((key) => ({ key, value: key })) },
    { topic: "hearth.audit.auth", messages: [{ key: "family-a", value: "x" }] },
  ],
};

describe("checkedProducer", () => {
  it("names the partitions no answer covers", () => {
    expect(partitionsNotAnswered(["t/0", "t/1", "u/0"], [answer("t", 1), answer("u", 0)])).toEqual(["t/0"]);
    expect(partitionsNotAnswered(new Set(["t/0"]), [answer("t", 0)])).toEqual([]);
  });

  it("resolves a send that every partition it went to answered", async () => {
    const { kafka } = fakeKafka((partitions) => partitions);
    const answers = await checkedProducer(kafka, { idempotent: true }).sendBatch(batch);
    expect(new Set(answers.map((a) => a.topicName))).toEqual(new Set(["hearth.audit.user", "hearth.audit.auth"]));
  });

  it("fails a send kafkajs resolved without one of its partitions, so the caller sends it again", async () => {
    const { kafka } = fakeKafka((partitions) => partitions.slice(1));
    const send = checkedProducer(kafka, { idempotent: true }).sendBatch(batch);
    await expect(send).rejects.toBeInstanceOf(KafkaSendIncompleteError);
    await expect(send).rejects.toThrow(/hearth\.audit\.user\/\d.*tulios\/kafkajs#1303/);
  });

  it("tallies each send on its own, one after another", async () => {
    let calls = 0;
    // The first send loses a partition; the second, started at the same time, does not.
    const { kafka, sends } = fakeKafka((partitions) => (++calls === 1 ? partitions.slice(1) : partitions));
    const sender = checkedProducer(kafka, {});
    const [first, second] = await Promise.allSettled([sender.sendBatch(batch), sender.sendBatch(batch)]);
    expect(first.status).toBe("rejected");
    expect(second.status).toBe("fulfilled");
    expect(sends).toHaveLength(2);
  });
});
