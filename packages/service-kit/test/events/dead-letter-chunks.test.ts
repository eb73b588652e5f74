import { describe, expect, it } from "vitest";
import { chunkMessages } from "../../src/events/kafka-consumer";

const message = (bytes: number) => ({ key: "k", value: "x".repeat(bytes), headers: { "dead-letter-error": "refused" } });

describe("dead letters sent in chunks", () => {
  it("splits a refused batch of ~1 MB into requests of at most 512 KiB, in order, none lost", () => {
    const batch = Array.from({ length: 100 }, (_, i) => ({ ...message(10_000), key: String(i) }));
    const chunks = chunkMessages(batch, 512 * 1024);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.flat().map((m) => m.key)).toEqual(batch.map((m) => m.key));
    for (const chunk of chunks) expect(chunk.reduce((sum, m) => sum + String(m.value).length, 0)).toBeLessThanOrEqual(512 * 1024);
  });

  it("sends a message larger than the bound on its own", () => {
    expect(chunkMessages([message(10), message(600_000), message(10)], 512 * 1024).map((chunk) => chunk.length)).toEqual([1, 1, 1]);
  });
});
