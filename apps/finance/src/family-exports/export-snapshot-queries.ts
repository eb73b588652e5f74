import type { FinanceTx } from "../db";

/** Makes the export's transaction read-only, before anything in it is read. */
export async function setReadOnly(tx: FinanceTx): Promise<void> {
  await tx.$executeRaw`SET TRANSACTION READ ONLY`;
}

/**
 * Exports the transaction's snapshot for the COPY connection to import (pg_export_snapshot()).
 * The transaction then waits idle through the COPYs (the rules are read last): no server-wide
 * idle timeout may end it.
 */
export async function exportSnapshot(tx: FinanceTx): Promise<string> {
  await tx.$executeRaw`SET LOCAL idle_in_transaction_session_timeout = 0`;
  const [exported] = await tx.$queryRaw<{ snapshot: string }[]>`SELECT pg_export_snapshot() AS snapshot`;
  return exported!.snapshot;
}
