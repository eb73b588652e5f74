// Opens Prisma's WebAssembly schema engine on the pg driver adapter.
//
// `@prisma/schema-engine-wasm` is built for bundlers (`import * as wasm from "./x.wasm"`), which
// Node does not load, and its `exports` map hides the .wasm file. So the glue module is imported
// by file path and the .wasm instantiated by hand, with the glue module as its import object.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";

type WasmExports = Record<string, unknown>;

/** The part of the WebAssembly global used here (not in this project's `lib`). */
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: WasmExports } }>;
};

/** The part of `schema_engine_bg.js` used here (it also exports the wasm imports). */
interface SchemaEngineGlue {
  __wbg_set_wasm(exports: WasmExports): void;
  SchemaEngine: typeof SchemaEngine;
  version(): string;
}

let loading: Promise<SchemaEngineGlue> | undefined;

/** Loads and starts the wasm module, once per process. */
export function loadSchemaEngineWasm(): Promise<SchemaEngineGlue> {
  loading ??= instantiate().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function instantiate(): Promise<SchemaEngineGlue> {
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = (await import(pathToFileURL(gluePath).href)) as SchemaEngineGlue;
  const bytes = await readFile(path.join(path.dirname(gluePath), "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

export interface OpenSchemaEngineOptions {
  /** The engine connects at once: the database must exist. */
  databaseUrl: string;
  /** Prisma schema the engine starts with; only some commands use it. */
  datamodel?: { path: string; content: string };
  /** Receives the engine's JSON log lines. */
  onEngineLog?: (line: string) => void;
}

export interface OpenSchemaEngine {
  engine: SchemaEngine;
  /** Frees the engine and closes its connections. Safe to call twice. */
  close(): Promise<void>;
}

export async function openSchemaEngine(options: OpenSchemaEngineOptions): Promise<OpenSchemaEngine> {
  const glue = await loadSchemaEngineWasm();
  // Our own pool (not the adapter's), so closing does not depend on the engine disposing it.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  pool.on("error", () => {}); // an idle client dropped by the server must not crash the process
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const onLog = options.onEngineLog ?? (() => {});
  const datamodels: [string, string][] | undefined = options.datamodel && [[options.datamodel.path, options.datamodel.content]];
  let engine: SchemaEngine;
  try {
    engine = await glue.SchemaEngine.new({ datamodels }, (line: string) => onLog(line), adapter);
  } catch (error) {
    await pool.end();
    throw error;
  }
  let closed = false;
  return {
    engine,
    async close() {
      if (closed) return;
      closed = true;
      engine.free();
      await pool.end();
    },
  };
}

/** Runs `fn` with an engine that is closed afterwards, whatever happens. */
export async function withSchemaEngine<T>(options: OpenSchemaEngineOptions, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const opened = await openSchemaEngine(options);
  try {
    return await fn(opened.engine);
  } finally {
    await opened.close();
  }
}

/** The filter every command takes: nothing is managed outside Prisma. */
export const NO_SCHEMA_FILTER = { externalTables: [], externalEnums: [] };
