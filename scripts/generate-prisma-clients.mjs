#!/usr/bin/env node
// Generates each service's Prisma client after `npm ci` (the clients are build output, not
// committed). Runs under whatever Node.js npm runs; Prisma 7 supports Node 20.19 and later.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "packages", "service-kit", "bin", "hearth-prisma.mjs");
for (const app of readdirSync(path.join(root, "apps"))) {
  const schema = path.join(root, "apps", app, "prisma", "schema.prisma");
  if (!existsSync(schema)) continue;
  const result = spawnSync(process.execPath, [cli, "generate", "--schema", schema], {
    stdio: ["ignore", "ignore", "inherit"],
    cwd: path.join(root, "apps", app),
  });
  if (result.status !== 0) {
    console.error(`prisma generate failed for apps/${app}`);
    process.exit(result.status ?? 1);
  }
}
