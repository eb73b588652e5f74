import { randomUUID } from "node:crypto";
import type { AccountType } from "@hearth/contracts";
import { addDays } from "../ledger/dates";

/** A seeded pseudo-random source (mulberry32): the same seed makes the same family. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
type Random = ReturnType<typeof randomSource>;
type NewEntry = Omit<SeedEntry, "id" | "currency" | "categoryId" | "merchantId" | "transactionKind" | "valuationKind"> & Partial<SeedEntry>;
type AddEntry = (entry: NewEntry, account: SeedAccount) => SeedEntry;

export interface SeedAccount {
  id: string;
  type: AccountType;
  currency: string;
}

export interface SeedEntry {
  id: string;
  accountId: string;
  kind: "transaction" | "valuation";
  date: string;
  name: string;
  amountCents: bigint;
  currency: string;
  categoryId: string | null;
  merchantId: string | null;
  transactionKind: "standard" | "funds_movement" | "cc_payment" | "loan_payment" | null;
  valuationKind: "reconciliation" | null;
}

export interface SeedLedger {
  entries: SeedEntry[];
  entryTags: { entryId: string; tagId: string }[];
  transfers: { id: string; inflowEntryId: string; outflowEntryId: string }[];
}

export interface SeedPlan {
  accounts: {
    checking: SeedAccount;
    savings: SeedAccount;
    card: SeedAccount;
    brokerage: SeedAccount;
    house: SeedAccount;
    car: SeedAccount;
    mortgage: SeedAccount;
  };
  /** Expense category ids by name, plus the income category. */
  expenseCategories: Record<string, string>;
  incomeCategory: string;
  merchants: { id: string; name: string; category: string }[];
  tagIds: string[];
  from: string;
  to: string;
  /** About how many card and checking purchases to make in all (the recurring ones come on top). */
  purchases: number;
  seed?: number;
}

/**
 * A household's history: pay twice a month, rent-like mortgage payments, bills, everyday
 * purchases with merchants, categories and tags, card bills paid from checking, savings and
 * investment transfers, and valuations of the house, the car and the brokerage account.
 */
export function generateDemoLedger(plan: SeedPlan): SeedLedger {
  const random = randomSource(plan.seed ?? 42);
  const ledger: SeedLedger = { entries: [], entryTags: [], transfers: [] };
  const { checking, savings, card, brokerage, house, car, mortgage } = plan.accounts;
  const days = dayList(plan.from, plan.to);

  const add: AddEntry = (entry, account) => {
    const full: SeedEntry = {
      id: randomUUID(),
      currency: account.currency,
      categoryId: null,
      merchantId: null,
      transactionKind: entry.kind === "transaction" ? "standard" : null,
      valuationKind: entry.kind === "valuation" ? "reconciliation" : null,
      ...entry,
    };
    ledger.entries.push(full);
    return full;
  };
  const transfer = (from: SeedAccount, to: SeedAccount, date: string, cents: bigint, name: string, outflowKind: SeedEntry["transactionKind"]) => {
    const outflow = add({ accountId: from.id, kind: "transaction", date, name, amountCents: cents, transactionKind: outflowKind }, from);
    const inflow = add({ accountId: to.id, kind: "transaction", date, name, amountCents: -cents, transactionKind: "funds_movement" }, to);
    ledger.transfers.push({ id: randomUUID(), inflowEntryId: inflow.id, outflowEntryId: outflow.id });
  };

  let houseValue = 42_000_000n;
  let carValue = 2_800_000n;
  let portfolio = 1_500_000n;
  // Everyday spending of about $3,000 a month whatever the number of purchases, 70% by card.
  const perDay = plan.purchases / days.length;
  const meanCents = Math.max(100, (300_000 * 24) / plan.purchases);
  let due = 0;
  let cardOwed = 0n;
  for (const date of days) {
    const day = Number(date.slice(8, 10));
    for (due += perDay; due >= 1; due--) {
      const onCard = random.next() < 0.7;
      const entry = purchase(random, plan, date, onCard ? card : checking, meanCents, add, ledger);
      if (onCard) cardOwed += entry.amountCents;
    }
    if (day === 1 || day === 15) {
      add(
        {
          accountId: checking.id,
          kind: "transaction",
          date,
          name: "Payroll",
          amountCents: -BigInt(random.int(310_000, 330_000)),
          categoryId: plan.incomeCategory,
        },
        checking,
      );
    }
    if (day === 2) {
      transfer(checking, mortgage, date, 185_000n, "Mortgage payment", "loan_payment");
      for (const [name, category, min, max] of BILLS) {
        add(
          {
            accountId: checking.id,
            kind: "transaction",
            date,
            name,
            amountCents: BigInt(random.int(min, max)),
            categoryId: plan.expenseCategories[category] ?? null,
          },
          checking,
        );
      }
    }
    if (day === 5) transfer(checking, savings, date, 50_000n, "Monthly savings", "funds_movement");
    if (day === 20) {
      const contribution = 40_000n;
      transfer(checking, brokerage, date, contribution, "Brokerage contribution", "funds_movement");
      portfolio += contribution + BigInt(random.int(-30_000, 45_000));
    }
    // The card is paid in full every month from checking.
    if (day === 25 && cardOwed > 0n) {
      transfer(checking, card, date, cardOwed, "Credit card payment", "cc_payment");
      cardOwed = 0n;
    }
    if (day === 28) {
      add({ accountId: brokerage.id, kind: "valuation", date, name: "Statement value", amountCents: portfolio }, brokerage);
      if (Number(date.slice(5, 7)) % 3 === 0) {
        houseValue += BigInt(random.int(-200_000, 600_000));
        add({ accountId: house.id, kind: "valuation", date, name: "Estimated value", amountCents: houseValue }, house);
      }
      if (date.slice(5, 7) === "12") {
        carValue = (carValue * 85n) / 100n;
        add({ accountId: car.id, kind: "valuation", date, name: "Estimated value", amountCents: carValue }, car);
      }
    }
  }
  return ledger;
}

const BILLS: readonly (readonly [string, string, number, number])[] = [
  ["Electricity", "Utilities", 6_000, 14_000],
  ["Water", "Utilities", 2_500, 4_500],
  ["Internet", "Utilities", 5_999, 5_999],
  ["Phone plan", "Utilities", 4_500, 4_500],
  ["Car insurance", "Insurance", 11_000, 11_000],
];

/** One purchase of an exponentially distributed size around `meanCents` (many small, a few large). */
function purchase(random: Random, plan: SeedPlan, date: string, account: SeedAccount, meanCents: number, add: AddEntry, ledger: SeedLedger): SeedEntry {
  const merchant = random.pick(plan.merchants);
  const cents = BigInt(Math.max(1, Math.round(-Math.log(1 - random.next()) * meanCents)));
  const refund = random.next() < 0.02;
  const entry = add(
    {
      accountId: account.id,
      kind: "transaction",
      date,
      name: refund ? `${merchant.name} refund` : merchant.name,
      amountCents: refund ? -cents : cents,
      merchantId: merchant.id,
      categoryId: plan.expenseCategories[merchant.category] ?? null,
    },
    account,
  );
  if (plan.tagIds.length > 0 && random.next() < 0.08) ledger.entryTags.push({ entryId: entry.id, tagId: random.pick(plan.tagIds) });
  return entry;
}

function dayList(from: string, to: string): string[] {
  const days: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) days.push(date);
  return days;
}
