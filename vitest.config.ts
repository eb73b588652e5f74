import { defineConfig } from "vitest/config";
import { testWorkers } from "@hearth/test-kit/vitest-preset";

/**
 * `npm test`: every package's tests in one vitest run, so one pool of workers takes files from
 * all of them (a package with few files no longer leaves a core idle while the next waits). Each
 * package's own vitest.config.ts is its project; files a package marks `alone` run one at a
 * time after the rest. The reliability suite needs the machine to itself and its own stack:
 * `npm test` runs it afterwards (packages/reliability).
 */
export default defineConfig({
  test: { maxWorkers: testWorkers(), projects: ["apps/*", "packages/*", "!packages/reliability"] },
});
