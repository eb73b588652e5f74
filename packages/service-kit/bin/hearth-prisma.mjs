#!/usr/bin/env node
// Runs the Prisma CLI offline. Prisma's CLI downloads its schema-engine binary at start-up,
// which fails without internet; `generate` never runs that engine, so pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file lets it proceed. Migrations go through
// `hearth-migrations` (the WebAssembly schema engine) instead.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const prismaCli = require.resolve("prisma/build/index.js");
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
env.CHECKPOINT_DISABLE = "1";
const result = spawnSync(process.execPath, [prismaCli, ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
