#!/usr/bin/env node
// Runs the Prisma CLI offline. Prisma's CLI downloads its schema-engine binary at start-up,
// which fails without internet; `generate` never runs that engine, so pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file lets it proceed. Migrations go through
// `hearth-migrations` (the WebAssembly schema engine) instead.
//
// `generate` is skipped when the client was last generated from the same schema by the same
// Prisma (a stamp in the output folder): `npm ci`, `npm test` and the typecheck each ask for
// the clients, and one CI run would otherwise generate all five three times.
// HEARTH_PRISMA_FORCE=1 generates regardless.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const prismaCli = require.resolve("prisma/build/index.js");
const args = process.argv.slice(2);
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
env.CHECKPOINT_DISABLE = "1";

/** The stamp file and the value it must hold for `generate` to be skipped, or undefined when unknown. */
function generateStamp() {
  if (args[0] !== "generate") return undefined;
  const flag = args.indexOf("--schema");
  const schemaPath = path.resolve(flag >= 0 && args[flag + 1] ? args[flag + 1] : "prisma/schema.prisma");
  if (!existsSync(schemaPath)) return undefined;
  const schema = readFileSync(schemaPath, "utf8");
  const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(schema)?.[1];
  if (!output) return undefined;
  const prismaVersion = JSON.parse(readFileSync(require.resolve("prisma/package.json"), "utf8")).version;
  const otherArgs = flag >= 0 ? args.filter((_, i) => i !== flag && i !== flag + 1) : args;
  const value = createHash("sha256")
    .update(`${prismaVersion}\n${otherArgs.join(" ")}\n${schema}`)
    .digest("hex");
  return { file: path.join(path.dirname(schemaPath), output, ".hearth-generated.sha256"), value };
}

const stamp = process.env.HEARTH_PRISMA_FORCE === "1" ? undefined : generateStamp();
const generated = (file) => existsSync(path.join(path.dirname(file), "client.ts"));
if (stamp && existsSync(stamp.file) && generated(stamp.file) && readFileSync(stamp.file, "utf8") === stamp.value) {
  console.log(`prisma client up to date with its schema (${path.relative(process.cwd(), path.dirname(stamp.file))}); not generated again`);
  process.exit(0);
}
const result = spawnSync(process.execPath, [prismaCli, ...args], { stdio: "inherit", env });
if (result.status === 0 && stamp && existsSync(path.dirname(stamp.file))) writeFileSync(stamp.file, stamp.value);
process.exit(result.status ?? 1);
