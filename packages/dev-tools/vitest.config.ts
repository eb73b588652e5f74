import { defineConfig } from "vitest/config";

// Checks of the repository's own rules: no infrastructure needed.
export default defineConfig({ test: { include: ["test/**/*.test.ts"] } });
