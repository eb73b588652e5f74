// The export's output: the archive cut into 1 MiB slices stored in order, one store at a time,
// the archive waiting for each, a failed store failing the export.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { CHUNK_BYTES, chunkedSink } from "../src/family-exports/chunked-sink";

const pieces = (bytes: Buffer, size: number) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

describe("chunkedSink", () => {
  it("stores whole slices in order, the rest last, one store at a time", async () => {
    const input = randomBytes(3 * CHUNK_BYTES + 12_345);
    const stored: { seq: number; slice: Buffer }[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const sink = chunkedSink(async (seq, slice) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      stored.push({ seq, slice: Buffer.from(slice) });
      inFlight--;
    });
    await pipeline(Readable.from(pieces(input, 100_000)), sink);
    expect(stored.map((s) => s.seq)).toEqual([0, 1, 2, 3]);
    expect(stored.map((s) => s.slice.length)).toEqual([CHUNK_BYTES, CHUNK_BYTES, CHUNK_BYTES, 12_345]);
    expect(Buffer.concat(stored.map((s) => s.slice)).equals(input)).toBe(true);
    expect(mostInFlight).toBe(1);
  });

  it("takes no more of the archive while a slice is being stored", async () => {
    let release: () => void = () => undefined;
    const firstStore = new Promise<void>((resolve) => (release = resolve));
    const stores: number[] = [];
    const sink = chunkedSink(async (seq) => {
      stores.push(seq);
      if (seq === 0) await firstStore;
    });
    let written = false;
    const write = new Promise<void>((resolve, reject) => sink.write(Buffer.alloc(CHUNK_BYTES), (err) => (err ? reject(err) : resolve()))).then(
      () => (written = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stores).toEqual([0]);
    expect(written).toBe(false);
    release();
    await write;
    sink.end();
  });

  it("fails when a store fails, at the next slice or at the end", async () => {
    const failing = chunkedSink(async (seq) => {
      if (seq === 1) throw new Error("database gone");
    });
    await expect(pipeline(Readable.from(pieces(randomBytes(3 * CHUNK_BYTES), 65_536)), failing)).rejects.toThrow("database gone");
    const failingLast = chunkedSink(async () => {
      throw new Error("database gone");
    });
    await expect(pipeline(Readable.from([Buffer.alloc(10)]), failingLast)).rejects.toThrow("database gone");
  });
});
