import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";
import { createLogger } from "@hearth/service-kit";
import { createKafka, createTopicsAndWait, startKafkaConsumer, type RunningConsumer } from "@hearth/service-kit/events";
import { describeWithKafka } from "@hearth/test-kit";

describeWithKafka("the Kafka consumer's committed offsets", (brokers) => {
  const log = createLogger("offsets-test", "silent");
  const topic = `hearth.test.offsets-${randomUUID()}`;
  const groupId = `hearth-offsets-test-${randomUUID()}`;
  let admin: Admin;
  let producer: Producer;

  beforeAll(async () => {
    const kafka = new Kafka({ clientId: "offsets-test", brokers: brokers.split(","), logLevel: logLevel.NOTHING });
    admin = kafka.admin();
    await admin.connect();
    // One partition: its messages arrive in the order they were produced.
    await createTopicsAndWait(admin, [{ topic, numPartitions: 1, replicationFactor: 1 }]);
    producer = kafka.producer();
    await producer.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    await admin?.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin?.disconnect();
  });

  const produce = (...values: string[]) => producer.send({ topic, messages: values.map((value) => ({ key: "k", value })) });

  async function consumeInto(handled: string[]): Promise<RunningConsumer> {
    const consumer = startKafkaConsumer({
      kafka: createKafka(brokers.split(","), "offsets-test-consumer", log),
      groupId,
      topics: [topic],
      log,
      handleBatch: async (messages) => void handled.push(...messages.map((m) => m.value)),
    });
    await consumer.ready();
    return consumer;
  }

  it("resumes a restarted consumer at the committed offset: only messages produced since are handled again", async () => {
    const first: string[] = [];
    const before = await consumeInto(first);
    await produce("m1", "m2", "m3");
    await expect.poll(() => first, { timeout: 30_000, interval: 100 }).toEqual(["m1", "m2", "m3"]);
    await before.stop();

    await produce("m4", "m5");
    const second: string[] = [];
    const after = await consumeInto(second);
    try {
      // One partition, in order: had it started over, m1..m3 would have come before m4.
      await expect.poll(() => second.length, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(2);
      expect(second).toEqual(["m4", "m5"]);
    } finally {
      await after.stop();
    }
  });
});
