import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";

type Tx = Prisma.TransactionClient;

/** Marks a family's ledger as changed (call inside the writing transaction). */
export async function bumpLedgerVersion(tx: Tx | FinanceDb, familyId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO ledger_versions (family_id, version) VALUES (${familyId}::uuid, 1)
    ON CONFLICT (family_id) DO UPDATE SET version = ledger_versions.version + 1`;
}

/**
 * What a family's entry lists depend on besides their filters, in one round trip: the ledger
 * version, and the accounts being deleted (hidden from every list at once).
 */
export async function ledgerStateOf(db: FinanceDb, familyId: string): Promise<{ version: bigint; hiddenAccountIds: string[] }> {
  const [row] = await db.$queryRaw<{ version: bigint | null; hidden: string[] }[]>`
    SELECT (SELECT version FROM ledger_versions WHERE family_id = ${familyId}::uuid) AS version,
           ARRAY(SELECT id::text FROM accounts WHERE family_id = ${familyId}::uuid AND status = 'pending_deletion' ORDER BY id) AS hidden`;
  return { version: row?.version ?? 0n, hiddenAccountIds: row?.hidden ?? [] };
}
