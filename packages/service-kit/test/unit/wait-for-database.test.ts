import { describe, expect, it } from "vitest";
import { untilDatabaseAnswers } from "../../src/wait-for-database";

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const quietLog = () => {
  const lines: string[] = [];
  return { lines, log: { info: (msg: string) => void lines.push(msg) } as never };
};

describe("untilDatabaseAnswers", () => {
  it("waits while the database refuses or does not exist yet, then returns the work's result", async () => {
    const { lines, log } = quietLog();
    let calls = 0;
    const result = await untilDatabaseAnswers(
      async () => {
        calls++;
        if (calls === 1) throw refused();
        if (calls === 2) throw new Error("database missing", { cause: { code: "3D000" } });
        return "migrated";
      },
      { log },
    );
    expect(result).toBe("migrated");
    expect(calls).toBe(3);
    expect(lines).toEqual(["waiting for the database"]);
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
