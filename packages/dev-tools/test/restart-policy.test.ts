import { describe, expect, it } from "vitest";
import { createRestartPolicy } from "../src/start/restart-policy";

const options = { maxCrashes: 4, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 3_000 };

describe("restart policy of npm start", () => {
  it("restarts with a doubling delay, capped, and gives up at the crash limit within the window", () => {
    const policy = createRestartPolicy(options);
    expect(policy.afterCrash(0)).toEqual({ restart: true, delayMs: 1_000, crashesInWindow: 1 });
    expect(policy.afterCrash(5_000)).toEqual({ restart: true, delayMs: 2_000, crashesInWindow: 2 });
    expect(policy.afterCrash(10_000)).toEqual({ restart: true, delayMs: 3_000, crashesInWindow: 3 });
    expect(policy.afterCrash(15_000)).toEqual({ restart: false, crashesInWindow: 4 });
  });

  it("forgets crashes older than the window, so an app crashing once a day runs on", () => {
    const policy = createRestartPolicy(options);
    for (let day = 0; day < 10; day++) expect(policy.afterCrash(day * 86_400_000)).toEqual({ restart: true, delayMs: 1_000, crashesInWindow: 1 });
  });
});
