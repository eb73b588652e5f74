import type { FinanceDb, FinanceTx } from "../db";

/** Marks a family's ledger as changed (call inside the writing transaction). */
export async function bumpLedgerVersion(tx: FinanceTx | FinanceDb, familyId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO ledger_versions (family_id, version) VALUES (${familyId}::uuid, 1)
    ON CONFLICT (family_id) DO UPDATE SET version = ledger_versions.version + 1`;
}

/**
 * Keeps the family's transaction count in step (inside the writing transaction, with the version
 * bump). `null` forgets it, so the next unfiltered list counts again (bulk writes use it).
 */
export async function adjustTransactionCount(tx: FinanceTx | FinanceDb, familyId: string, delta: number | null): Promise<void> {
  if (delta === null) await tx.$executeRaw`UPDATE ledger_versions SET transactions = NULL WHERE family_id = ${familyId}::uuid`;
  else await tx.$executeRaw`UPDATE ledger_versions SET transactions = transactions + ${delta} WHERE family_id = ${familyId}::uuid`;
}

export interface LedgerState {
  version: bigint;
  hiddenAccountIds: string[];
  /** All the family's transactions (hidden accounts' included), or null when not known. */
  transactions: bigint | null;
}

/**
 * What a family's entry lists depend on besides their filters, in one round trip: the ledger
 * version, the accounts being deleted (hidden from every list at once) and the transaction count.
 */
export async function ledgerStateOf(db: FinanceDb, familyId: string): Promise<LedgerState> {
  const [row] = await db.$queryRaw<{ version: bigint | null; transactions: bigint | null; hidden: string[] }[]>`
    SELECT v.version, v.transactions,
           ARRAY(SELECT id::text FROM accounts WHERE family_id = ${familyId}::uuid AND status = 'pending_deletion' ORDER BY id) AS hidden
      FROM (SELECT 1) one LEFT JOIN ledger_versions v ON v.family_id = ${familyId}::uuid`;
  return { version: row?.version ?? 0n, hiddenAccountIds: row?.hidden ?? [], transactions: row?.transactions ?? null };
}

/** Stores a counted total, unless the ledger changed while counting (then the next list counts again). */
export async function rememberTransactionCount(db: FinanceDb, familyId: string, version: bigint, total: number): Promise<void> {
  await db.$executeRaw`UPDATE ledger_versions SET transactions = ${total} WHERE family_id = ${familyId}::uuid AND version = ${version}`;
}
