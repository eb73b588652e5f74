#!/usr/bin/env node
// Prisma migrations without the Prisma CLI's schema-engine binary: see src/migrations/cli.ts.
// Plain node cannot import the TypeScript sources, so they are loaded through tsx's API,
// resolved from this file's location (works from any cwd, e.g. `npm run ... -w apps/x`).
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../src/migrations/cli.ts", import.meta.url);
const code = await main(process.argv.slice(2), process.cwd());
process.exit(code);
