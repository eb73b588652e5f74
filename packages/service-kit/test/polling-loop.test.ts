import { describe, expect, it } from "vitest";
import { createPollingLoop } from "../src/workers/polling-loop";

const quiet = { error() {}, warn() {}, info() {}, debug() {} };

describe("the polling loop", () => {
  it("stops after the step in progress, leaving the rest queued (was: ran the whole queue first)", async () => {
    let steps = 0;
    const loop = createPollingLoop({
      step: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        steps++;
        return steps < 100;
      },
      pollMs: 1000,
      log: quiet as never,
      name: "test",
    });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 70));
    const began = Date.now();
    await loop.stop();
    expect(Date.now() - began).toBeLessThan(200);
    expect(steps).toBeLessThan(10);
  });

  it("a poke during the sleep runs the steps at once; a failing step is logged and retried on the next pass", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const loop = createPollingLoop({
      step: async () => {
        calls++;
        if (calls === 1) throw new Error("database away");
        return false;
      },
      pollMs: 60_000,
      log: { ...quiet, error: (entry: unknown) => errors.push(entry) } as never,
      name: "test",
    });
    loop.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    loop.poke();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await loop.stop();
    expect(errors).toHaveLength(1);
    expect(calls).toBe(2);
  });
});
