import type { AccountType, ListedSubtype } from "@hearth/contracts";
import type { FinanceTx } from "../../db";
import { calculatorAccountOf, classificationOf, openingStart } from "../../balances/balance-calculator";
import { ACCOUNTABLE_TYPES } from "../../family-exports/sure-values";
import { todayIso, yearsBefore } from "../../ledger/dates";
import { requestAccountSync } from "../../syncs/sync-queue-queries";
import {
  keepNewAccounts,
  insertOpeningValuations,
  insertStagedAccounts,
  newAccountIds,
  setStagedTypes,
  stageAccountRows,
  stagedAccountCounts,
  stagedTypeNames,
  type StagedAccountType,
} from "./account-import-queries";
import { PublishError } from "./publish-error";
import type { PublishTarget } from "./transaction-import-publisher";

export interface AccountPublishOutcome {
  accounts: number;
  skipped_duplicates: number;
}

interface MappedType {
  accountType: AccountType;
  subtype: string | null;
}

/** "Credit Card", "credit_card", "CreditCard" and "401(k)" compare as "creditcard" and "401k". */
const normalizeTypeName = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A type, one of the subtypes Sure lists for it (ACCOUNT_SUBTYPES: checked when this compiles), and names for it. */
type SubtypeNames = { [T in AccountType]: readonly [T, ListedSubtype<T>, ...string[]] }[AccountType];

/**
 * Names that pick a type and subtype, from Sure's accountable SUBTYPES (their keys and short and
 * long labels: "Checking", "Student Loan", "Roth IRA"); HSA is Sure's first, Depository.
 */
const SUBTYPE_NAMES: readonly SubtypeNames[] = [
  ["depository", "checking", "Checking"],
  ["depository", "savings", "Savings"],
  ["depository", "hsa", "HSA", "Health Savings Account"],
  ["depository", "cd", "CD", "Certificate of Deposit"],
  ["depository", "money_market", "MM", "Money Market"],
  ["investment", "brokerage", "Brokerage"],
  ["investment", "401k", "401(k)"],
  ["investment", "roth_401k", "Roth 401(k)"],
  ["investment", "403b", "403(b)"],
  ["investment", "457b", "457(b)"],
  ["investment", "tsp", "TSP", "Thrift Savings Plan"],
  ["investment", "ira", "IRA", "Traditional IRA"],
  ["investment", "roth_ira", "Roth IRA"],
  ["investment", "sep_ira", "SEP IRA"],
  ["investment", "simple_ira", "SIMPLE IRA"],
  ["investment", "529_plan", "529 Plan", "529 Education Savings Plan"],
  ["investment", "isa", "ISA", "Individual Savings Account"],
  ["investment", "sipp", "SIPP", "Self-Invested Personal Pension"],
  ["investment", "tfsa", "TFSA", "Tax-Free Savings Account"],
  ["investment", "rrsp", "RRSP", "Registered Retirement Savings Plan"],
  ["investment", "pension", "Pension"],
  ["investment", "retirement", "Retirement"],
  ["investment", "mutual_fund", "Mutual Fund"],
  ["crypto", "wallet", "Wallet", "Crypto Wallet"],
  ["crypto", "exchange", "Exchange", "Crypto Exchange"],
  ["property", "single_family_home", "Single Family Home"],
  ["property", "multi_family_home", "Multi-Family Home"],
  ["property", "condominium", "Condo", "Condominium"],
  ["property", "townhouse", "Townhouse"],
  ["property", "investment_property", "Investment Property"],
  ["property", "second_home", "Second Home"],
  ["property", "apartment", "Apartment"],
  ["property", "plot", "Plot", "Plot / Land"],
  ["property", "commercial", "Commercial Property"],
  ["property", "agri_land", "Agri Land", "Agricultural Land"],
  ["loan", "mortgage", "Mortgage"],
  ["loan", "student", "Student Loan"],
  ["loan", "auto", "Auto Loan"],
  ["loan", "home_equity", "Home Equity", "Home Equity Loan"],
  ["loan", "line_of_credit", "Line of Credit"],
  ["loan", "business", "Business Loan"],
  ["loan", "other", "Other Loan"],
];

/** Names of the types themselves as Sure shows them (its account groups: "Cash", "Bank Account", "Credit Cards"). */
const TYPE_LABELS: Partial<Record<AccountType, readonly string[]>> = {
  depository: ["Bank Account", "Bank", "Cash"],
  investment: ["Investments"],
  property: ["Properties"],
  vehicle: ["Vehicles"],
  credit_card: ["Credit Cards"],
  loan: ["Loans"],
  other_asset: ["Other Assets"],
  other_liability: ["Other Liabilities"],
};

/**
 * What a file's account type names. Sure has the user map each value to an Accountable class
 * (Import::AccountTypeMapping); without that step here, the value itself is read: a class
 * ("Depository", "CreditCard"), its title ("Credit Card"), Hearth's type ("other_asset"), a
 * group label ("Bank Account"), or a subtype ("Checking", "Mortgage"), which is then set too.
 */
const TYPE_NAMES: ReadonlyMap<string, MappedType> = (() => {
  const names = new Map<string, MappedType>();
  const add = (name: string, mapped: MappedType) => {
    if (!names.has(normalizeTypeName(name))) names.set(normalizeTypeName(name), mapped);
  };
  for (const [accountType, sureClass] of Object.entries(ACCOUNTABLE_TYPES) as [AccountType, string][]) {
    for (const name of [accountType, sureClass, ...(TYPE_LABELS[accountType] ?? [])]) add(name, { accountType, subtype: null });
  }
  for (const [accountType, subtype, ...labels] of SUBTYPE_NAMES) for (const label of labels) add(label, { accountType, subtype });
  return names;
})();

export function accountTypeNamed(name: string): MappedType | null {
  return TYPE_NAMES.get(normalizeTypeName(name)) ?? null;
}

/**
 * Publishes an AccountImport inside the caller's transaction (all or nothing), set-based, as
 * Sure's AccountImport#import! does: one account per row, of the row's type, in its currency,
 * with the row's balance as its opening balance (an opening-anchor valuation on the row's date,
 * else two years back: Sure's OpeningBalanceManager default for an account without entries), as
 * the accounts API creates one. Accounts carry the import's id (a revert removes them). A row
 * named as an account the family has, or as an earlier row, is skipped (Sure would make another).
 */
export async function publishAccountImport(
  tx: FinanceTx,
  target: PublishTarget,
  onProgress: (rowsDone: number) => Promise<void>,
): Promise<AccountPublishOutcome> {
  const { id: importId, familyId } = target;
  await stageAccountRows(tx, importId);

  // Types: every value the file uses must name one.
  const typeNames = await stagedTypeNames(tx);
  const unknown = typeNames.filter((name) => accountTypeNamed(name) === null);
  if (unknown.length > 0) {
    const named = unknown.filter((name) => name.trim() !== "");
    const known = Object.values(ACCOUNTABLE_TYPES).join(", ");
    throw new PublishError(
      named.length > 0
        ? `Unknown account types ${named.map((name) => `"${name}"`).join(", ")}: use one of ${known} (or a subtype such as Checking, Savings, Mortgage)`
        : `Rows without an account type: give each row one of ${known}`,
    );
  }
  const mapped = typeNames.map((name): StagedAccountType => {
    const { accountType, subtype } = accountTypeNamed(name)!;
    // The share of the opening balance that is cash, as the accounts API splits it (1 or 0).
    const cashShare = openingStart(calculatorAccountOf(accountType), 1).endCashCents;
    return { name, accountType, subtype, classification: classificationOf(accountType), cashShare };
  });
  await setStagedTypes(tx, mapped);

  await keepNewAccounts(tx, familyId);
  await insertStagedAccounts(tx, familyId, importId);
  await insertOpeningValuations(tx, familyId, importId, yearsBefore(todayIso(), 2));

  const created = await newAccountIds(tx);
  for (const accountId of created) await requestAccountSync(tx, familyId, accountId, null);
  const { last, total } = await stagedAccountCounts(tx);
  await onProgress(last);
  return { accounts: created.length, skipped_duplicates: total - created.length };
}
