import { defineConfig } from "vitest/config";

// Pure unit tests: no infrastructure needed.
export default defineConfig({ test: { include: ["test/**/*.test.ts"] } });
