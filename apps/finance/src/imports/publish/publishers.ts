import type { ImportType } from "@hearth/contracts";
import type { FinanceTx } from "../../db";
import { publishAccountImport } from "./account-import-publisher";
import { publishCategoryImport } from "./category-import-publisher";
import { publishMerchantImport } from "./merchant-import-publisher";
import { publishQifImport } from "../qif/qif-publisher";
import { publishRuleImport } from "./rule-import-publisher";
import { publishSureImport } from "./sure-import-publisher";
import { publishTradeImport } from "./trade-import-publisher";
import { publishTransactionImport, type PublishTarget } from "./transaction-import-publisher";

/**
 * Writes an import's valid rows inside the caller's transaction (all or nothing) and answers
 * what it wrote by kind. Throws PublishError for a reason the user can act on.
 */
export type Publisher = (tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>) => Promise<Record<string, number>>;

/** The import types this service publishes, each by its writer. */
export const PUBLISHERS: Partial<Record<ImportType, Publisher>> = {
  TransactionImport: async (tx, target, onProgress) => ({ ...(await publishTransactionImport(tx, target, onProgress)) }),
  MintImport: async (tx, target, onProgress) => ({ ...(await publishTransactionImport(tx, target, onProgress)) }),
  YnabImport: async (tx, target, onProgress) => ({ ...(await publishTransactionImport(tx, target, onProgress)) }),
  ActualImport: async (tx, target, onProgress) => ({ ...(await publishTransactionImport(tx, target, onProgress)) }),
  TradeImport: async (tx, target, onProgress) => ({ ...(await publishTradeImport(tx, target, onProgress)) }),
  AccountImport: async (tx, target, onProgress) => ({ ...(await publishAccountImport(tx, target, onProgress)) }),
  CategoryImport: async (tx, target, onProgress) => ({ ...(await publishCategoryImport(tx, target, onProgress)) }),
  MerchantImport: async (tx, target, onProgress) => ({ ...(await publishMerchantImport(tx, target, onProgress)) }),
  RuleImport: async (tx, target, onProgress) => ({ ...(await publishRuleImport(tx, target, onProgress)) }),
  SureImport: publishSureImport,
  OfxImport: async (tx, target, onProgress) => ({ ...(await publishTransactionImport(tx, target, onProgress)) }),
  QifImport: async (tx, target, onProgress) => ({ ...(await publishQifImport(tx, target, onProgress)) }),
};

export function publisherOf(type: string): Publisher | undefined {
  return PUBLISHERS[type as ImportType];
}
