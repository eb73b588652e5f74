import { describe, expect, it } from "vitest";
import { inLanes } from "../src/rules/in-lanes";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("inLanes", () => {
  it("runs every item, never more than `lanes` at once, starting them in order", async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await inLanes([1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(2);
  });

  it("after a failure starts nothing more, lets the item under way finish, then throws the first error", async () => {
    const finished: number[] = [];
    const run = inLanes([1, 2, 3, 4, 5], 2, async (item) => {
      if (item === 1) throw new Error("first failed");
      await tick();
      if (item === 3) throw new Error("third failed too");
      finished.push(item);
    });
    await expect(run).rejects.toThrow("first failed");
    // Item 1 failed at once; item 2 was under way and ended; 3 to 5 never started.
    expect(finished).toEqual([2]);
  });

  it("does nothing for no items, and runs one lane for a lane count below one", async () => {
    await inLanes([], 2, async () => {
      throw new Error("never called");
    });
    const seen: number[] = [];
    await inLanes([1, 2], 0, async (item) => {
      seen.push(item);
    });
    expect(seen).toEqual([1, 2]);
  });
});
