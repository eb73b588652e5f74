import type { FinanceTx } from "../db";

/** The family's rules lock for the transaction: rules.create (rule-repository) takes it too. */
export async function lockFamilyRules(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`rules:${familyId}`}, 0))`;
}

/** The family's budgets lock for the transaction: budget-repository takes it to change budgets and their lines. */
export async function lockFamilyBudgets(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`budgets:${familyId}`}, 0))`;
}
