#!/usr/bin/env node
// `npm start`: compiles the supervisor, then runs it while every app compiles (esbuild, about
// half a second, so dist/ never lags the sources): PostgreSQL starts during the apps' build.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { bundle } from "./bundle.mjs";

const here = import.meta.dirname;
const root = path.resolve(here, "..", "..", "..");
const apps = readdirSync(path.join(root, "apps")).filter((app) => existsSync(path.join(root, "apps", app, "src", "main.ts")));
const appsBuilt = Promise.all(apps.map((app) => bundle(path.join(root, "apps", app), [{ in: "src/main.ts", out: "main" }])));
appsBuilt.catch(() => {}); // the supervisor awaits it and reports a failure
await bundle(path.resolve(here, ".."), [
  { in: "src/start/main.ts", out: "start" },
  { in: "src/start/exit-with-parent.ts", out: "exit-with-parent" },
]);
const { runSupervisor } = await import(path.join(here, "..", "dist", "start.js"));
runSupervisor({ appsBuilt });
