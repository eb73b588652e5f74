import type { Kafka, ProducerBatch } from "kafkajs";
import { describe, expect, it } from "vitest";
import { KafkaPublisher, isProducerStateError } from "../../src/events/kafka";
import type { OutboxMessage } from "../../src/events/relay";

/** A Kafka whose producers are fakes: each records its sends and fails the ones `fail` picks. */
function fakeKafka(fail: (producer: number, send: number) => Error | null) {
  const producers: { sends: ProducerBatch[]; disconnected: boolean }[] = [];
  const kafka = {
    producer: () => {
      const index = producers.length;
      const state = { sends: [] as ProducerBatch[], disconnected: false };
      producers.push(state);
      return {
        connect: async () => {},
        disconnect: async () => {
          state.disconnected = true;
        },
        sendBatch: async (batch: ProducerBatch) => {
          const err = fail(index, state.sends.length);
          state.sends.push(batch);
          if (err) throw err;
          return [];
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, producers };
}

const message: OutboxMessage = { id: 1n, eventId: "e-1", topic: "hearth.audit.auth", key: "family", payload: { a: 1 }, headers: {} };

/** kafkajs' shape of a broker's refusal, as its retrier wraps it. */
function protocolError(type: string): Error {
  const cause = Object.assign(new Error("The broker received an out of order sequence number"), { name: "KafkaJSProtocolError", type, retriable: false });
  return Object.assign(new Error("Number of retries exceeded"), { name: "KafkaJSNumberOfRetriesExceeded", cause });
}

describe("the Kafka publisher after a broker forgot its producer", () => {
  it("recognises the errors only a new producer gets past, wrapped or not", () => {
    expect(isProducerStateError(protocolError("OUT_OF_ORDER_SEQUENCE_NUMBER"))).toBe(true);
    expect(isProducerStateError(protocolError("UNKNOWN_PRODUCER_ID"))).toBe(true);
    expect(isProducerStateError(protocolError("NOT_LEADER_FOR_PARTITION"))).toBe(false);
    expect(isProducerStateError(new Error("boom"))).toBe(false);
  });

  it("fails that send, then sends the retry through a new producer and lets the old one go", async () => {
    const { kafka, producers } = fakeKafka((producer, send) => (producer === 0 && send === 1 ? protocolError("OUT_OF_ORDER_SEQUENCE_NUMBER") : null));
    const publisher = new KafkaPublisher(kafka);
    await publisher.publish([message]);
    await expect(publisher.publish([message])).rejects.toThrow(/retries exceeded/);
    await publisher.publish([message]); // the relay's retry of the same batch
    expect(producers.map((p) => p.sends.length)).toEqual([2, 1]);
    expect(producers[0]!.disconnected).toBe(true);
    expect(producers[1]!.disconnected).toBe(false);
  });

  it("keeps its producer through other failures", async () => {
    const { kafka, producers } = fakeKafka((_producer, send) => (send === 0 ? protocolError("NOT_LEADER_FOR_PARTITION") : null));
    const publisher = new KafkaPublisher(kafka);
    await expect(publisher.publish([message])).rejects.toThrow();
    await publisher.publish([message]);
    expect(producers).toHaveLength(1);
  });
});
