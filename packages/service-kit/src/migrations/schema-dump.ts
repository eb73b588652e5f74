// Compares database schemas through `pg_dump --schema-only`, normalised so that equal schemas
// compare equal: no comments, SET lines, ownership, `_prisma_migrations`; column and enum value
// order ignored (a migration appends a column, a fresh CREATE TABLE lists it in schema order).
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

function pgDumpCandidates(): string[] {
  const fromEnv = process.env.PG_DUMP ? [process.env.PG_DUMP] : [];
  let versioned: string[] = [];
  try {
    versioned = readdirSync("/usr/lib/postgresql")
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a))
      .map((v) => path.join("/usr/lib/postgresql", v, "bin", "pg_dump"));
  } catch {
    // not a Debian-style install
  }
  return [...fromEnv, "pg_dump", ...versioned];
}

/** `pg_dump --schema-only` of a database (PG_DUMP overrides which pg_dump runs). */
export async function dumpSchema(databaseUrl: string): Promise<string> {
  const args = [
    "--schema-only",
    "--no-owner",
    "--no-privileges",
    "--no-comments",
    "--no-tablespaces",
    "--exclude-table=_prisma_migrations",
    `--dbname=${databaseUrl}`,
  ];
  let lastError: unknown;
  for (const pgDump of pgDumpCandidates()) {
    try {
      const { stdout } = await run(pgDump, args, { maxBuffer: 64 * 1024 * 1024 });
      return stdout;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ENOENT") throw new Error(`pg_dump failed: ${(error as Error).message}`, { cause: error });
      lastError = error;
    }
  }
  throw new Error("pg_dump not found: install the PostgreSQL client tools or set PG_DUMP", { cause: lastError });
}

/**
 * Functions and triggers: schema.prisma cannot describe them, so only a migration's raw SQL makes
 * them, and the comparison leaves them out.
 */
const UNMODELLED = /^CREATE (FUNCTION|PROCEDURE|TRIGGER|CONSTRAINT TRIGGER) /;

/** The dump as a sorted list of normalised statements. */
export function normalizeDump(dump: string): string[] {
  const lines = dump
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line && !line.startsWith("--") && !line.startsWith("\\") && !/^SET\s/.test(line) && !line.startsWith("SELECT pg_catalog.set_config"));
  const statements: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    current.push(line);
    if (line.endsWith(";") && !inRoutineBody(current)) {
      statements.push(normalizeStatement(current));
      current = [];
    }
  }
  if (current.length > 0) statements.push(normalizeStatement(current));
  return statements.filter((s) => !/^ALTER .* OWNER TO /.test(s) && !UNMODELLED.test(s)).sort();
}

/** Whether the lines open a routine whose body (pg_dump quotes it with dollars) is not closed yet: its semicolons end no statement. */
function inRoutineBody(lines: string[]): boolean {
  if (!/^CREATE (FUNCTION|PROCEDURE) /.test(lines[0] ?? "")) return false;
  const text = lines.join("\n");
  const quote = /\$\w*\$/.exec(text)?.[0];
  return quote !== undefined && text.split(quote).length < 3;
}

/** Multi-line `CREATE TABLE x (...)` / `CREATE TYPE x AS ENUM (...)`: sort the inner lines. */
function normalizeStatement(lines: string[]): string {
  const first = lines[0] ?? "";
  const last = lines.at(-1) ?? "";
  if (lines.length > 2 && /^CREATE (UNLOGGED )?TABLE |^CREATE TYPE .* AS ENUM \($/.test(first) && /^\)/.test(last)) {
    const inner = lines
      .slice(1, -1)
      .map((line) => line.trim().replace(/,$/, ""))
      .sort();
    return [first, ...inner.map((line) => `    ${line}`), last].join("\n");
  }
  return lines.join("\n");
}

export interface SchemaComparison {
  equal: boolean;
  onlyInLeft: string[];
  onlyInRight: string[];
}

export function compareDumps(left: string, right: string): SchemaComparison {
  const remaining = new Map<string, number>();
  const l = normalizeDump(left);
  const r = normalizeDump(right);
  for (const s of r) remaining.set(s, (remaining.get(s) ?? 0) + 1);
  const onlyInLeft: string[] = [];
  for (const s of l) {
    const count = remaining.get(s) ?? 0;
    if (count > 0) remaining.set(s, count - 1);
    else onlyInLeft.push(s);
  }
  const onlyInRight = [...remaining].flatMap(([s, count]) => Array<string>(count).fill(s));
  return { equal: onlyInLeft.length === 0 && onlyInRight.length === 0, onlyInLeft, onlyInRight };
}
