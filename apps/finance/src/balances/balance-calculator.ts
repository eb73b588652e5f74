// The forward balance calculator: from a starting balance, walk day by day applying each day's
// entries, and let a valuation reset the day's total. Same model as Sure's
// Balance::ForwardCalculator (cash and non-cash parts, flows, adjustments, flows factor), kept
// pure so the materializer can run it for a whole history or for a window after a change.
// As in Sure, property, vehicle, other asset and other liability balances move by valuations
// alone: their transactions are recorded but move nothing (Sure's forward_calculator_test.rb,
// "non cash accounts can only use valuations ..."); a loan's transactions move its principal.
import type { AccountType } from "@hearth/contracts";
import { dayNumberToIso, tryIsoToDayNumber } from "./calendar-days";

export type { AccountType };
export type Classification = "asset" | "liability";
export type BalanceType = "cash" | "non_cash" | "investment";

export interface CalculatorAccount {
  classification: Classification;
  balanceType: BalanceType;
  /** True where only valuations set the balance (non-cash accounts other than loans). */
  valuationsOnly: boolean;
}

export interface CalculatorEntry {
  /** ISO date YYYY-MM-DD. */
  date: string;
  kind: "transaction" | "trade" | "valuation";
  /** Integer minor units in the account's currency. Transactions and trades: positive = outflow, negative = inflow. Valuation: the day's total balance. */
  amountCents: number;
}

/** The balance at the end of the day before `from`. */
export interface BalanceStart {
  endCashCents: number;
  endNonCashCents: number;
}

export interface DailyBalance {
  date: string;
  flowsFactor: 1 | -1;
  startCashCents: number;
  startNonCashCents: number;
  cashInflowsCents: number;
  cashOutflowsCents: number;
  nonCashInflowsCents: number;
  nonCashOutflowsCents: number;
  netMarketFlowsCents: number;
  cashAdjustmentsCents: number;
  nonCashAdjustmentsCents: number;
  endCashCents: number;
  endNonCashCents: number;
}

export interface CalculateBalancesInput {
  account: CalculatorAccount;
  /** Any order. Several valuations on one day: the last one in array order wins. */
  entries: readonly CalculatorEntry[];
  from: string;
  to: string;
  /** Absent = zero. */
  start?: BalanceStart;
  /** Net market flows (cents) per ISO day for non-cash holdings. */
  marketFlowsByDate?: ReadonlyMap<string, number>;
  /**
   * Investment accounts: the value of the day's holdings (cents, absent = 0). As in Sure's
   * calculator, it is the day's non-cash balance; what trades do not explain of its change is
   * the day's net market flow, and a valuation's total splits into these holdings and cash.
   */
  holdingsValueByDate?: ReadonlyMap<string, number>;
}

const ACCOUNT_TYPES: Readonly<Record<AccountType, { classification: Classification; balanceType: BalanceType }>> = {
  depository: { classification: "asset", balanceType: "cash" },
  investment: { classification: "asset", balanceType: "investment" },
  crypto: { classification: "asset", balanceType: "investment" },
  property: { classification: "asset", balanceType: "non_cash" },
  vehicle: { classification: "asset", balanceType: "non_cash" },
  other_asset: { classification: "asset", balanceType: "non_cash" },
  credit_card: { classification: "liability", balanceType: "cash" },
  loan: { classification: "liability", balanceType: "non_cash" },
  other_liability: { classification: "liability", balanceType: "non_cash" },
};
const BALANCE_TYPES: ReadonlySet<string> = new Set<BalanceType>(["cash", "non_cash", "investment"]);
const ENTRY_KINDS: ReadonlySet<string> = new Set<CalculatorEntry["kind"]>(["transaction", "trade", "valuation"]);

function accountTypeInfo(accountType: AccountType) {
  if (!Object.hasOwn(ACCOUNT_TYPES, accountType)) throw new Error(`Unknown account type: ${String(accountType)}`);
  return ACCOUNT_TYPES[accountType];
}

export function classificationOf(accountType: AccountType): Classification {
  return accountTypeInfo(accountType).classification;
}

export function balanceTypeOf(accountType: AccountType): BalanceType {
  return accountTypeInfo(accountType).balanceType;
}

/** How the calculator treats an account of this type. */
export function calculatorAccountOf(accountType: AccountType): CalculatorAccount {
  const { classification, balanceType } = accountTypeInfo(accountType);
  return { classification, balanceType, valuationsOnly: balanceType === "non_cash" && accountType !== "loan" };
}

/** The start of an account's first day: its opening balance split into cash and non-cash as a valuation would be. */
export function openingStart(account: CalculatorAccount, totalCents: number): BalanceStart {
  const total = cents(totalCents, "opening balance");
  const cash = cashPartOfTotal(account.balanceType, total, 0);
  return { endCashCents: cash, endNonCashCents: total - cash };
}

/** +1 for assets, -1 for liabilities: an inflow raises an asset and lowers the amount owed. */
export function flowsFactorOf(classification: Classification): 1 | -1 {
  if (classification === "asset") return 1;
  if (classification === "liability") return -1;
  throw new Error(`Unknown classification: ${String(classification)}`);
}

/** One day's entries, summed once so the walk over days does no per-entry work. */
interface DayFlows {
  cashIn: number;
  cashOut: number;
  nonCashIn: number;
  nonCashOut: number;
  market: number;
  valuation: number | undefined;
}

const NO_FLOWS: Readonly<DayFlows> = Object.freeze({ cashIn: 0, cashOut: 0, nonCashIn: 0, nonCashOut: 0, market: 0, valuation: undefined });

/** A safe integer with negative zero folded into zero (toEqual and JSON tell them apart). */
function cents(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new Error(`${what} must be an integer number of cents, got ${String(value)}`);
  return value + 0;
}

function dayNumberOf(iso: string, what: string): number {
  const dayNumber = tryIsoToDayNumber(iso);
  if (Number.isNaN(dayNumber)) throw new Error(`${what} must be an ISO date YYYY-MM-DD, got ${JSON.stringify(iso)}`);
  return dayNumber;
}

function flowsOfDay(days: (DayFlows | undefined)[], index: number): DayFlows {
  let flows = days[index];
  if (flows === undefined) {
    flows = { cashIn: 0, cashOut: 0, nonCashIn: 0, nonCashOut: 0, market: 0, valuation: undefined };
    days[index] = flows;
  }
  return flows;
}

function addEntry(flows: DayFlows, kind: CalculatorEntry["kind"], amount: number, account: CalculatorAccount): void {
  if (kind === "valuation") {
    flows.valuation = amount; // array order: the last valuation of the day wins
    return;
  }
  if (account.valuationsOnly) return; // recorded in the ledger, no flow in the balance
  const inflow = amount < 0;
  const size = inflow ? -amount : amount;
  if (account.balanceType === "non_cash") {
    // A loan: no cash part, its transactions move the principal owed.
    if (inflow) flows.nonCashIn += size;
    else flows.nonCashOut += size;
    return;
  }
  if (inflow) flows.cashIn += size;
  else flows.cashOut += size;
  // A buy (positive) turns cash into holdings, a sell (negative) holdings into cash.
  if (kind === "trade") {
    if (inflow) flows.nonCashOut += size;
    else flows.nonCashIn += size;
  }
}

function groupEntriesByDay(input: CalculateBalancesInput, fromDay: number, dayCount: number): (DayFlows | undefined)[] {
  const days: (DayFlows | undefined)[] = new Array<DayFlows | undefined>(dayCount);
  const { entries, account } = input;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry === undefined || entry === null) throw new Error(`entries[${i}] is missing`);
    const index = dayNumberOf(entry.date, `entries[${i}].date`) - fromDay;
    if (!ENTRY_KINDS.has(entry.kind)) throw new Error(`entries[${i}].kind is unknown: ${String(entry.kind)}`);
    const amount = cents(entry.amountCents, `entries[${i}].amountCents`);
    if (index < 0 || index >= dayCount) continue;
    addEntry(flowsOfDay(days, index), entry.kind, amount, account);
  }
  for (const [date, value] of input.marketFlowsByDate ?? []) {
    const index = dayNumberOf(date, "marketFlowsByDate key") - fromDay;
    const amount = cents(value, `marketFlowsByDate[${date}]`);
    if (index < 0 || index >= dayCount) continue;
    flowsOfDay(days, index).market += amount;
  }
  return days;
}

/** The cash part of a valuation's total, as Sure splits it by balance type. */
function cashPartOfTotal(balanceType: BalanceType, total: number, nonCashFromFlows: number): number {
  if (balanceType === "cash") return total;
  if (balanceType === "non_cash") return 0;
  return total - nonCashFromFlows; // investment: holdings are known, the rest is cash
}

// Sums of many safe integers can leave the exactly representable range; refuse rather than round.
function assertSafe(row: DailyBalance): void {
  const safe =
    Number.isSafeInteger(row.cashInflowsCents) &&
    Number.isSafeInteger(row.cashOutflowsCents) &&
    Number.isSafeInteger(row.nonCashInflowsCents) &&
    Number.isSafeInteger(row.nonCashOutflowsCents) &&
    Number.isSafeInteger(row.netMarketFlowsCents) &&
    Number.isSafeInteger(row.endCashCents) &&
    Number.isSafeInteger(row.endNonCashCents);
  if (!safe) throw new Error(`Balance on ${row.date} exceeds the safe integer range`);
}

function closeDay(
  date: string,
  account: CalculatorAccount,
  flowsFactor: 1 | -1,
  startCash: number,
  startNonCash: number,
  flows: DayFlows,
  holdingsValue: number | undefined,
): DailyBalance {
  // Written as two subtractions rather than a product with -1, which would make negative zeros.
  const netCash = flowsFactor === 1 ? flows.cashIn - flows.cashOut : flows.cashOut - flows.cashIn;
  const netNonCash = flowsFactor === 1 ? flows.nonCashIn - flows.nonCashOut : flows.nonCashOut - flows.nonCashIn;
  const cashFromFlows = startCash + netCash;
  // Holdings known: the market moved whatever trades do not explain of their value.
  const market = holdingsValue === undefined ? flows.market : holdingsValue - (startNonCash + netNonCash);
  const nonCashFromFlows = startNonCash + netNonCash + market;
  let endCash = cashFromFlows;
  let endNonCash = nonCashFromFlows;
  if (flows.valuation !== undefined) {
    endCash = cashPartOfTotal(account.balanceType, flows.valuation, nonCashFromFlows);
    endNonCash = flows.valuation - endCash;
  }
  const row: DailyBalance = {
    date,
    flowsFactor,
    startCashCents: startCash,
    startNonCashCents: startNonCash,
    cashInflowsCents: flows.cashIn,
    cashOutflowsCents: flows.cashOut,
    nonCashInflowsCents: flows.nonCashIn,
    nonCashOutflowsCents: flows.nonCashOut,
    netMarketFlowsCents: market,
    cashAdjustmentsCents: endCash - cashFromFlows,
    nonCashAdjustmentsCents: endNonCash - nonCashFromFlows,
    endCashCents: endCash,
    endNonCashCents: endNonCash,
  };
  assertSafe(row);
  return row;
}

function validateAccount(account: CalculatorAccount): 1 | -1 {
  if (account === null || typeof account !== "object") throw new Error("account is missing");
  if (!BALANCE_TYPES.has(account.balanceType)) throw new Error(`Unknown balance type: ${String(account.balanceType)}`);
  if (typeof account.valuationsOnly !== "boolean") throw new Error("account.valuationsOnly must be a boolean");
  return flowsFactorOf(account.classification);
}

/** Rows for every day from `from` to `to` inclusive. Entries dated outside [from, to] are ignored. Throws a plain Error on invalid input. */
export function calculateBalances(input: CalculateBalancesInput): DailyBalance[] {
  const flowsFactor = validateAccount(input.account);
  const fromDay = dayNumberOf(input.from, "from");
  const toDay = dayNumberOf(input.to, "to");
  if (fromDay > toDay) throw new Error(`from (${input.from}) is after to (${input.to})`);
  if (!Array.isArray(input.entries)) throw new Error("entries must be an array");
  let cash = input.start ? cents(input.start.endCashCents, "start.endCashCents") : 0;
  let nonCash = input.start ? cents(input.start.endNonCashCents, "start.endNonCashCents") : 0;

  const dayCount = toDay - fromDay + 1;
  const days = groupEntriesByDay(input, fromDay, dayCount);
  const holdings = input.account.balanceType === "investment" ? input.holdingsValueByDate : undefined;
  const rows: DailyBalance[] = new Array<DailyBalance>(dayCount);
  for (let index = 0; index < dayCount; index++) {
    const date = dayNumberToIso(fromDay + index);
    const holdingsValue = holdings === undefined ? undefined : cents(holdings.get(date) ?? 0, `holdingsValueByDate[${date}]`);
    const row = closeDay(date, input.account, flowsFactor, cash, nonCash, days[index] ?? NO_FLOWS, holdingsValue);
    rows[index] = row;
    cash = row.endCashCents;
    nonCash = row.endNonCashCents;
  }
  return rows;
}
