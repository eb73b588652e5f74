import type { FinanceDb } from "../db";

// The family's ledger version and transaction count are kept by the database itself: triggers on
// entries, entry_tags, tags and merchants note every write, and its commit bumps the version and
// moves the count by exactly the transactions it added or removed (migration ledger_write_rule).
// No code path writes them by hand; a write only asks for its balance sync (requestAccountSync).

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

/** Stores a counted total, unless the ledger changed while counting (then the next list counts again); the triggers keep it from then on. */
export async function rememberTransactionCount(db: FinanceDb, familyId: string, version: bigint, total: number): Promise<void> {
  await db.$executeRaw`UPDATE ledger_versions SET transactions = ${total} WHERE family_id = ${familyId}::uuid AND version = ${version}`;
}
