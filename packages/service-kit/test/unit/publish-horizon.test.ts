import { describe, expect, it } from "vitest";
import { publishHorizon } from "../../src/events/publish-horizon";
import { chunkByBytes } from "../../src/events/batching";
import type { OutboxMessage } from "../../src/events/relay";

const EPOCH = 2n ** 32n;

describe("publishHorizon", () => {
  it("is the next xid when no transaction of the database is running", () => {
    expect(publishHorizon(1_000n, [])).toBe(1_000n);
  });

  it("is the oldest running xid when one is older than the next xid", () => {
    expect(publishHorizon(1_000n, ["990", "950", "999"])).toBe(950n);
  });

  it("ignores xids assigned after the next xid was read (they hold back nothing it let through)", () => {
    expect(publishHorizon(1_000n, ["1000", "1005"])).toBe(1_000n);
    expect(publishHorizon(1_000n, ["1005", "980"])).toBe(980n);
  });

  it("places a 32-bit running xid in the right epoch across the wraparound", () => {
    // The next xid is 5 into epoch 1; a transaction started 10 xids earlier, in epoch 0.
    expect(publishHorizon(EPOCH + 5n, [String(EPOCH - 5n)])).toBe(EPOCH - 5n);
    expect(publishHorizon(3n * EPOCH + 100n, ["40"])).toBe(3n * EPOCH + 40n);
  });
});

describe("chunkByBytes", () => {
  const message = (n: number, bytes = 10): OutboxMessage => ({
    id: BigInt(n),
    eventId: `e${n}`,
    topic: "t",
    key: "k",
    payload: "x".repeat(bytes),
    headers: {},
  });

  it("cuts runs at the count limit as well as at the byte limit, keeping the order", () => {
    const messages = Array.from({ length: 7 }, (_, n) => message(n));
    expect(chunkByBytes(messages, 1_000_000, 3).map((run) => run.map((m) => m.eventId))).toEqual([["e0", "e1", "e2"], ["e3", "e4", "e5"], ["e6"]]);
    // Each message is ~80 bytes by the estimate: 200 bytes take two.
    expect(chunkByBytes(messages, 200, 3).map((run) => run.length)).toEqual([2, 2, 2, 1]);
  });
});
