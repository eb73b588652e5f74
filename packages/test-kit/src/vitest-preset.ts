import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * The vitest settings every package shares: real infrastructure from the global setup,
 * generous timeouts for it, and one file at a time (2 cores, shared servers).
 */
export function hearthVitestConfig(options: { usesKafka?: boolean } = {}) {
  return defineConfig({
    test: {
      include: ["test/**/*.test.ts"],
      globalSetup: [fileURLToPath(new URL("./global-setup.ts", import.meta.url))],
      env: { HEARTH_TEST_NEEDS_KAFKA: options.usesKafka ? "1" : "0" },
      testTimeout: 60_000,
      hookTimeout: 120_000,
      fileParallelism: false,
    },
  });
}
