import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { RULE_INCLUDE, type RuleRow } from "./rule-definition";

/** Runs `work` so that a failure inside it undoes only its own changes, not the caller's transaction. */
export async function isolated<T>(tx: FinanceTx, name: string, work: () => Promise<T>): Promise<T | undefined> {
  const savepoint = Prisma.raw(name);
  await tx.$executeRaw`SAVEPOINT ${savepoint}`;
  try {
    const result = await work();
    await tx.$executeRaw`RELEASE SAVEPOINT ${savepoint}`;
    return result;
  } catch {
    await tx.$executeRaw`ROLLBACK TO SAVEPOINT ${savepoint}`;
    return undefined;
  }
}

/** Runs `work` with each of its statements stopped after `ms`, then sets the transaction's timeout back. */
export async function withStatementTimeout<T>(tx: FinanceTx, ms: number, work: () => Promise<T>): Promise<T> {
  await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${ms}`);
  const result = await work();
  await tx.$executeRawUnsafe("SET LOCAL statement_timeout = DEFAULT");
  return result;
}

/** The family's active transaction rules, oldest first: the order they apply in. */
export function activeTransactionRules(tx: FinanceTx, familyId: string): Promise<RuleRow[]> {
  return tx.rule.findMany({
    where: { familyId, active: true, resourceType: "transaction" },
    include: RULE_INCLUDE,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Whether each match (a condition on `entries e`) holds for the entry, in their order: one statement for them all. */
export async function entryMatches(tx: FinanceTx, entryId: string, matches: readonly Prisma.Sql[]): Promise<boolean[]> {
  const [row] = await tx.$queryRaw<{ matched: boolean[] }[]>`
    SELECT ARRAY[${Prisma.join(matches.map((match) => Prisma.sql`EXISTS (SELECT 1 FROM entries e WHERE e.id = ${entryId}::uuid AND ${match})`))}]::boolean[] AS matched`;
  return row?.matched ?? [];
}
