import { describe, expect, it } from "vitest";
import { untilDatabaseAnswers } from "../../src/wait-for-database";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const quietLog = () => {
  const lines: unknown[] = [];
  return {
    lines,
    log: { warn: (fields: object, msg: string) => void lines.push({ ...fields, msg }) } as never,
    database: "postgresql://app:***@db:5432/app",
    timeoutMs: 60_000,
  };
};

describe("untilDatabaseAnswers", () => {
  it("waits while the database refuses or does not exist yet, then returns the work's result", async () => {
    const options = quietLog();
    let calls = 0;
    const result = await untilDatabaseAnswers(async () => {
      calls++;
      if (calls === 1) throw refused();
      if (calls === 2) throw new Error("database missing", { cause: { code: "3D000" } });
      return "migrated";
    }, options);
    expect(result).toBe("migrated");
    expect(calls).toBe(3);
    // Reported once (then every 10 s), naming the database and the reason, never a password.
    expect(options.lines).toEqual([
      expect.objectContaining({ msg: "waiting for the database", database: "postgresql://app:***@db:5432/app", reason: "connect ECONNREFUSED 127.0.0.1:5432" }),
    ]);
  });

  it("does not retry any other failure", async () => {
    let calls = 0;
    const failing = untilDatabaseAnswers(async () => {
      calls++;
      throw new Error("migration 2 does not apply");
    }, quietLog());
    await expect(failing).rejects.toThrow("migration 2 does not apply");
    expect(calls).toBe(1);
  });

  it("gives up with the last error once the time is over", async () => {
    const started = Date.now();
    await expect(untilDatabaseAnswers(async () => Promise.reject(refused()), { ...quietLog(), timeoutMs: 300 })).rejects.toThrow("ECONNREFUSED");
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
