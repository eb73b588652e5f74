import { afterEach, describe, expect, it, vi } from "vitest";
import { clearOfWindowEdge } from "../src";

afterEach(() => vi.useRealTimers());

describe("clearOfWindowEdge", () => {
  it("returns at once when the window has more than the time needed left", async () => {
    vi.useFakeTimers({ now: 3_600_000 * 10 + 1000 });
    await expect(clearOfWindowEdge(3600, 60)).resolves.toBeUndefined();
  });

  it("waits past the window's end when it ends within the time needed", async () => {
    vi.useFakeTimers({ now: 3_600_000 * 11 - 30_000 });
    let done = false;
    const waiting = clearOfWindowEdge(3600, 60).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1_100);
    await waiting;
    expect(Date.now()).toBeGreaterThan(3_600_000 * 11);
  });
});
