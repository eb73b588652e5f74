// SQL migrating one Prisma schema to another. Reads no database schema (the engine cannot
// here), but the engine still opens a connection: it asks the server's version at start.
import type { DiffTarget } from "@prisma/schema-engine-wasm";
import { adminUrlFromEnv } from "./database-url";
import { NO_SCHEMA_FILTER, withSchemaEngine } from "./schema-engine";

export type DiffSchemasOptions = ({ fromDatamodel: string; empty?: never } | { empty: true; fromDatamodel?: never }) & {
  toDatamodel: string;
  /** Any existing database on the target server (default: MIGRATIONS_ADMIN_URL or local postgres). */
  connectionUrl?: string;
  /** File names used in the engine's error messages. */
  fromPath?: string;
  toPath?: string;
};

/** The migration script, or "" when the schemas are equivalent. */
export async function diffSchemas(options: DiffSchemasOptions): Promise<string> {
  const from: DiffTarget =
    options.fromDatamodel === undefined
      ? { tag: "empty" }
      : { tag: "schemaDatamodel", files: [{ path: options.fromPath ?? "schema.snapshot.prisma", content: options.fromDatamodel }] };
  const to: DiffTarget = { tag: "schemaDatamodel", files: [{ path: options.toPath ?? "schema.prisma", content: options.toDatamodel }] };
  const result = await withSchemaEngine({ databaseUrl: options.connectionUrl ?? adminUrlFromEnv() }, (engine) =>
    // exitCode: true makes the engine answer 2 when there is a difference, 0 when there is none.
    engine.diff({ from, to, script: true, exitCode: true, filters: NO_SCHEMA_FILTER }),
  );
  if (result.exitCode === 0) return "";
  return result.stdout ?? "";
}
