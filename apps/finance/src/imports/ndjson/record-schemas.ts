import type { z } from "zod";
import { accountSchema, balanceSchema } from "./account-schemas";
import { budgetCategorySchema, budgetSchema } from "./budget-schemas";
import { CategorySchema, MerchantSchema, TagSchema } from "./catalog-schemas";
import { holdingSchema, tradeSchema } from "./investment-schemas";
import type { ReadContext } from "./read-context";
import type { SureRecordType } from "./record-types";
import type { SureRecordValues } from "./record-values";
import { recurringTransactionSchema } from "./recurring-schema";
import { RuleSchema } from "./rule-schema";
import { RejectedTransferSchema, TransferSchema, transactionSchema } from "./transaction-schemas";
import { valuationSchema } from "./valuation-schema";

/** What a record type's `data` reads as, without the line it came from. */
export type RecordSchemas = { [T in SureRecordType]: z.ZodType<Omit<SureRecordValues[T], "line">> };

/** The schema of each record type's `data`, bound to the currencies records fall back to. */
export function recordSchemas(context: ReadContext): RecordSchemas {
  return {
    Account: accountSchema(context),
    Balance: balanceSchema(context),
    Category: CategorySchema,
    Tag: TagSchema,
    Merchant: MerchantSchema,
    RecurringTransaction: recurringTransactionSchema(context),
    Transaction: transactionSchema(context),
    Transfer: TransferSchema,
    RejectedTransfer: RejectedTransferSchema,
    Trade: tradeSchema(context),
    Holding: holdingSchema(context),
    Valuation: valuationSchema(context),
    Budget: budgetSchema(context),
    BudgetCategory: budgetCategorySchema(context),
    Rule: RuleSchema,
  };
}

/** Issues named in one message at most; the rest are counted. */
const MAX_ISSUES_NAMED = 3;

const pathText = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((text, key) => (typeof key === "number" ? `${text}[${key}]` : text === "" ? String(key) : `${text}.${String(key)}`), "");

/** A schema's issues as one sentence: "Line 4 Transaction amount must be a decimal number like 12.34." */
export function issuesMessage(line: number, type: SureRecordType, issues: readonly z.core.$ZodIssue[]): string {
  const named = issues.slice(0, MAX_ISSUES_NAMED).map((issue) => `${pathText(issue.path) || "data"} ${issue.message}`);
  const more = issues.length > MAX_ISSUES_NAMED ? `; and ${issues.length - MAX_ISSUES_NAMED} more` : "";
  return `Line ${line} ${type} ${named.join("; ")}${more}.`;
}
