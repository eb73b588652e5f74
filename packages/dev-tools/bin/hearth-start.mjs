#!/usr/bin/env node
// `npm start`: compiles every app and the supervisor (esbuild, well under a second, so dist/
// never lags the sources), then runs the compiled supervisor in this process.
import { readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { bundle } from "./bundle.mjs";

const here = import.meta.dirname;
const root = path.resolve(here, "..", "..", "..");
const apps = readdirSync(path.join(root, "apps")).filter((app) => existsSync(path.join(root, "apps", app, "src", "main.ts")));
await Promise.all([
  ...apps.map((app) => bundle(path.join(root, "apps", app), [{ in: "src/main.ts", out: "main" }])),
  bundle(path.resolve(here, ".."), [
    { in: "src/start/main.ts", out: "start" },
    { in: "src/start/exit-with-parent.ts", out: "exit-with-parent" },
  ]),
]);
await import(path.join(here, "..", "dist", "start.js"));
