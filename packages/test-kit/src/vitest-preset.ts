import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export interface HearthVitestOptions {
  usesKafka?: boolean;
  /**
   * Files that need the machine to themselves (they stop the shared Kafka broker, measure
   * timings under load, or start whole stacks of processes): they run after the others, one
   * at a time, with nothing beside them.
   */
  alone?: string[];
}

/**
 * Test files run side by side in this many workers: each owns its databases (fresh copies),
 * ports and consumer groups, and most of their time is spent waiting on PostgreSQL, Kafka or a
 * timer, which a second worker fills. HEARTH_TEST_WORKERS overrides it (1 = one file at a time).
 */
export function testWorkers(): number {
  const set = Number(process.env.HEARTH_TEST_WORKERS);
  if (Number.isInteger(set) && set >= 1) return set;
  return Math.max(2, Math.min(4, availableParallelism()));
}

/**
 * A worker runs its files one after another in one module graph (vitest's `isolate: false`):
 * each file still starts its own systems on its own databases, but the apps' modules are loaded
 * once per worker instead of once per file, which was a fifth of the suites' time.
 * HEARTH_TEST_ISOLATE=1 gives every file a fresh module graph again, to rule out a leak between files.
 */
function isolated(): boolean {
  return process.env.HEARTH_TEST_ISOLATE === "1";
}

/**
 * The vitest settings every package shares: real infrastructure from the global setup,
 * generous timeouts for it, files in parallel except the ones that must run alone.
 */
export function hearthVitestConfig(options: HearthVitestOptions = {}) {
  const include = ["test/**/*.test.ts"];
  const alone = options.alone ?? [];
  const shared = {
    globalSetup: [fileURLToPath(new URL("./global-setup.ts", import.meta.url))],
    env: { HEARTH_TEST_NEEDS_KAFKA: options.usesKafka ? "1" : "0" },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  };
  const sideBySide = { include, maxWorkers: testWorkers(), isolate: isolated() };
  if (alone.length === 0) return defineConfig({ test: { ...shared, ...sideBySide } });
  return defineConfig({
    test: {
      ...shared,
      projects: [
        { extends: true, test: { name: "side-by-side", ...sideBySide, exclude: alone } },
        // One worker in the default group order: vitest runs such a project's files one at a
        // time after every other group, here and in the root's run of every package.
        { extends: true, test: { name: "alone", include: alone, maxWorkers: 1 } },
      ],
    },
  });
}
