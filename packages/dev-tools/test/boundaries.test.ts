import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The boundaries of docs/architecture.md are lint rules (eslint.config.js): these cases prove
// each rule fires where it must and stays quiet where the architecture allows the import.
const root = path.resolve(import.meta.dirname, "..", "..", "..");
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const used = x;\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("dependency boundaries (eslint no-restricted-imports)", () => {
  it.each([
    ["apps/gateway/src/identity/x.ts", 'import { x } from "@hearth/finance/app";', "no service imports another"],
    ["apps/gateway/src/identity/x.ts", 'import { x } from "../../../../finance/src/db";', "not even by a relative path"],
    ["apps/finance/src/tags/x.ts", 'import { x } from "@hearth/test-kit";', "apps depend on contracts and the kit only"],
    ["apps/finance/src/tags/tag-handlers.ts", 'import { x } from "../db";', "handlers do not query"],
    ["apps/finance/src/tags/tag-handlers.ts", 'import { x } from "../generated/prisma/client";', "handlers see no Prisma rows"],
    ["apps/audit/src/x-handlers.ts", 'import { x } from "@prisma/client";', "handlers see no Prisma"],
    ["apps/finance/src/tags/x.ts", 'import { x } from "@trpc/server";', "domain code does not import the transport"],
    ["apps/gateway/src/identity/auth/x.ts", 'import { x } from "express";', "identity code does not import express"],
    ["packages/contracts/src/x.ts", 'import { x } from "@hearth/service-kit";', "contracts import nothing of ours"],
    ["packages/contracts/src/x.ts", 'import { x } from "@prisma/client";', "contracts know no database"],
    ["packages/service-kit/src/x.ts", 'import { x } from "@hearth/test-kit";', "the kit builds on the contracts only"],
    ["packages/test-kit/src/x.ts", 'import { x } from "@hearth/finance/app";', "the test kit imports no app"],
    ["packages/demo-seed/src/x.ts", 'import { x } from "@hearth/finance/db";', "the seeder speaks the contracts"],
    ["packages/reliability/src/x.ts", 'import { x } from "@hearth/service-kit";', "the reliability suite drives the system from outside"],
    ["packages/test-kit/src/x.ts", 'import { x } from "@hearth/reliability";', "the test kit does not import the reliability suite"],
    ["scripts/x.ts", 'import { x } from "../apps/finance/src/db";', "scripts use package exports"],
    ["bench/x.ts", 'import { x } from "../apps/gateway/src/identity/auth/passwords";', "benchmarks use package exports"],
  ])("%s: %s is refused (%s)", async (file, line) => {
    expect(await boundaryErrors(file, line)).toHaveLength(1);
  });

  it.each([
    ["apps/finance/src/tags/tag-repository.ts", 'import { x } from "../db";'],
    ["apps/finance/src/tags/tag-handlers.ts", 'import { x } from "@hearth/service-kit";'],
    ["apps/gateway/src/http/x.ts", 'import { x } from "express";'],
    ["apps/finance/test/x.test.ts", 'import { x } from "@hearth/test-kit";'],
    ["packages/test-kit/src/x.ts", 'import { x } from "@hearth/dev-tools/embedded-postgres";'],
    ["packages/system-tests/src/x.ts", 'import { x } from "@hearth/finance/app";'],
  ])("%s: %s is allowed", async (file, line) => {
    expect(await boundaryErrors(file, line)).toEqual([]);
  });
});

async function placementErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
}

// Queries live in repositories and query modules; files that only build SQL text may be *-sql.ts.
describe("query placement (eslint no-restricted-syntax)", () => {
  const RAW = "export const run = (db: any) => db.$queryRaw`SELECT 1`;\n";
  const MODEL = "export const run = (tx: any) => tx.account.findMany({});\n";
  const SCOPED = "export const run = (scope: any) => scope.db.rule.count({});\n";
  const BUILT = 'import { Prisma } from "../generated/prisma/client";\nexport const part = Prisma.sql`a = 1`;\n';
  it.each([
    ["apps/finance/src/rules/rule-engine.ts", RAW, "raw SQL in an engine"],
    ["apps/finance/src/imports/publish/x-publisher.ts", MODEL, "a Prisma model call in a publisher"],
    ["apps/finance/src/family-exports/rule-export.ts", SCOPED, "a model call through a scope's client"],
    ["apps/chat/src/messages/message-progress.ts", RAW, "raw SQL in a feature file"],
    ["apps/finance/src/insights/x.ts", BUILT, "SQL text built outside a query module or SQL engine"],
    ["apps/finance/src/rules/x-sql.ts", RAW, "a SQL engine that runs its SQL itself"],
    ["apps/finance/src/insights/x.ts", 'export const run = (db: any) => db["$queryRawUnsafe"]("SELECT 1");\n', "raw SQL by a computed name"],
    [
      "apps/finance/src/insights/x.ts",
      "export const run = (db: any) => { const { $executeRaw } = db; return $executeRaw; };\n",
      "raw SQL taken apart from its client",
    ],
    ["apps/finance/src/insights/x.ts", 'import { Prisma as P } from "../generated/prisma/client";\nexport const part = P;\n', "Prisma under another name"],
  ])("%s: refused (%s)", async (file, code) => {
    expect(await placementErrors(file, code)).toHaveLength(1);
  });

  it.each([
    ["apps/finance/src/tags/tag-repository.ts", RAW],
    ["apps/finance/src/tags/tag-repository.ts", MODEL],
    ["apps/finance/src/rules/rule-run-queries.ts", SCOPED],
    ["apps/finance/src/rules/condition-sql.ts", BUILT],
    // Not a Prisma client: an HTTP client's nested resources, a cache's entries.
    ["apps/chat/src/assistant/x.ts", "export const run = (client: any) => client.chat.completions.create({});\n"],
    ["apps/gateway/src/identity/auth/x.ts", "export const run = (caches: any) => caches.apiKeys.update('k', {});\n"],
  ])("%s: allowed", async (file, code) => {
    expect(await placementErrors(file, code)).toEqual([]);
  });
});
