import { describe, expect, it } from "vitest";
import { cachedCheck } from "../src/health/cached-check";
import { createGatewayReadiness } from "../src/health/gateway-readiness";

describe("cachedCheck", () => {
  it("runs the check once for any number of concurrent callers, and once per ttl after that", async () => {
    let clock = 0;
    let runs = 0;
    let release: () => void = () => {};
    const check = cachedCheck(
      () => {
        runs++;
        return new Promise<number>((resolve) => (release = () => resolve(runs)));
      },
      1000,
      () => clock,
    );
    const callers = Array.from({ length: 500 }, () => check());
    release();
    expect(await Promise.all(callers)).toEqual(Array(500).fill(1));
    expect(runs).toBe(1);
    clock = 999;
    await check();
    expect(runs).toBe(1);
    clock = 2000;
    const next = check();
    release();
    expect(await next).toBe(2);
  });

  it("reuses a failure for the ttl too, then tries again", async () => {
    let clock = 0;
    let runs = 0;
    const check = cachedCheck(
      async () => {
        runs++;
        throw new Error("down");
      },
      1000,
      () => clock,
    );
    await expect(check()).rejects.toThrow("down");
    await expect(check()).rejects.toThrow("down");
    expect(runs).toBe(1);
    clock = 5000;
    await expect(check()).rejects.toThrow("down");
    expect(runs).toBe(2);
  });
});

describe("gateway readiness", () => {
  it("answers unavailable when the database does not answer in time, instead of hanging", async () => {
    const readiness = createGatewayReadiness({ pingDatabase: () => new Promise(() => {}), cacheMs: 0, timeoutMs: 50 });
    expect(await readiness.check()).toEqual({ ready: false, body: { status: "unavailable", checks: { database: false } } });
  });

  it("is ready when its database answers, unavailable when not, and draining after drain()", async () => {
    let up = true;
    const readiness = createGatewayReadiness({ pingDatabase: async () => (up ? 1 : Promise.reject(new Error("no database"))), cacheMs: 0 });
    expect(await readiness.check()).toEqual({ ready: true, body: { status: "ready", checks: { database: true } } });
    up = false;
    expect(await readiness.check()).toEqual({ ready: false, body: { status: "unavailable", checks: { database: false } } });
    up = true;
    readiness.drain();
    expect(await readiness.check()).toEqual({ ready: false, body: { status: "draining", checks: { database: true } } });
  });
});
