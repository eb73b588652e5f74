#!/usr/bin/env node
// `hearth-build`: an app's `npm run build`. Compiles src/main.ts to dist/main.js.
import { bundle } from "./bundle.mjs";

const ms = await bundle(process.cwd(), [{ in: "src/main.ts", out: "main" }]);
console.log(`built dist/main.js in ${Math.round(ms)} ms`);
