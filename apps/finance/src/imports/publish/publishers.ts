import type { CsvImportType } from "@hearth/contracts";
import type { FinanceTx } from "../../db";
import { publishTransactionImport, type PublishTarget } from "./transaction-import-publisher";

/**
 * Writes an import's valid rows inside the caller's transaction (all or nothing) and answers
 * what it wrote by kind. Throws PublishError for a reason the user can act on.
 */
export type Publisher = (tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>) => Promise<Record<string, number>>;

/** The import types this service publishes, each by its writer. */
export const PUBLISHERS: Partial<Record<CsvImportType, Publisher>> = {
  TransactionImport: async (tx, target, onProgress) => ({ ...(await publishTransactionImport(tx, target, onProgress)) }),
};

export function publisherOf(type: string): Publisher | undefined {
  return PUBLISHERS[type as CsvImportType];
}
