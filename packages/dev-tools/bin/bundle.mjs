// Compiles a Hearth program to one ESM file: our own TypeScript (the app and the @hearth/*
// packages it uses, which export their sources) is bundled, every third-party package stays
// an import resolved from node_modules at run time (production dependencies only).
// Plain JavaScript on purpose: it must run before anything is compiled.
import { build } from "esbuild";

/** Bare imports that are not ours: left to Node.js (native addons, wasm, OpenTelemetry's hooks). */
const thirdPartyExternal = {
  name: "third-party-external",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@hearth/") || args.kind === "entry-point") return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * Bundles each entry (`{ in: "src/main.ts", out: "main" }`) of the package in `cwd` into
 * `cwd/dist/<out>.js` with a source map. Returns the time it took in ms.
 */
export async function bundle(cwd, entries) {
  const started = performance.now();
  await build({
    absWorkingDir: cwd,
    entryPoints: entries,
    outdir: "dist",
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    sourcemap: true,
    logLevel: "warning",
    plugins: [thirdPartyExternal],
  });
  return performance.now() - started;
}
