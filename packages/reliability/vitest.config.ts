import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * The scenarios share one stack: they run in the order of their file names, the one that stops
 * Kafka last, so a broker outage the system does not recover from cannot fail the others too.
 */
class ByFileName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

// One private stack (PostgreSQL, Kafka, `npm start`) for the run, started by the global setup.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["./src/global-setup.ts"],
    testTimeout: 600_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    sequence: { sequencer: ByFileName },
  },
});
