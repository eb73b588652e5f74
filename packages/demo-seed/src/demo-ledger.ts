import { dayList } from "./iso-dates";
import { randomSource, type RandomSource } from "./random-source";
import { addTransfer, emptyLedger, transactionEntry, valuationEntry, type SeedAccount, type SeedLedger } from "./seed-ledger";

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

const BILLS: readonly (readonly [string, string, number, number])[] = [
  ["Electricity", "Utilities", 6_000, 14_000],
  ["Water", "Utilities", 2_500, 4_500],
  ["Internet", "Utilities", 5_999, 5_999],
  ["Phone plan", "Utilities", 4_500, 4_500],
  ["Car insurance", "Insurance", 11_000, 11_000],
];

/**
 * A household's history: pay twice a month, mortgage payments, bills, everyday purchases with
 * merchants, categories and tags, card bills paid from checking, savings and investment
 * transfers, and valuations of the house, the car and the brokerage account.
 */
export function generateDemoLedger(plan: SeedPlan): SeedLedger {
  const random = randomSource(plan.seed ?? 42);
  const ledger = emptyLedger();
  const { checking, savings, card, brokerage, house, car, mortgage } = plan.accounts;
  const days = dayList(plan.from, plan.to);

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
      const cents = purchase(random, plan, date, onCard ? card : checking, meanCents, ledger);
      if (onCard) cardOwed += cents;
    }
    if (day === 1 || day === 15) {
      const pay = -BigInt(random.int(310_000, 330_000));
      ledger.entries.push(transactionEntry(checking, date, "Payroll", pay, { category_id: plan.incomeCategory }));
    }
    if (day === 2) {
      addTransfer(ledger, checking, mortgage, date, 185_000n, "Mortgage payment", "loan_payment");
      for (const [name, category, min, max] of BILLS) {
        const cents = BigInt(random.int(min, max));
        ledger.entries.push(transactionEntry(checking, date, name, cents, { category_id: plan.expenseCategories[category] ?? null }));
      }
    }
    if (day === 5) addTransfer(ledger, checking, savings, date, 50_000n, "Monthly savings", "funds_movement");
    if (day === 20) {
      const contribution = 40_000n;
      addTransfer(ledger, checking, brokerage, date, contribution, "Brokerage contribution", "investment_contribution");
      portfolio += contribution + BigInt(random.int(-30_000, 45_000));
    }
    // The card is paid in full every month from checking.
    if (day === 25 && cardOwed > 0n) {
      addTransfer(ledger, checking, card, date, cardOwed, "Credit card payment", "cc_payment");
      cardOwed = 0n;
    }
    // Not on the first day: the accounts' opening balances are that day's valuations.
    if (day === 28 && date !== plan.from) {
      ledger.entries.push(valuationEntry(brokerage, date, "Statement value", portfolio));
      if (Number(date.slice(5, 7)) % 3 === 0) {
        houseValue += BigInt(random.int(-200_000, 600_000));
        ledger.entries.push(valuationEntry(house, date, "Estimated value", houseValue));
      }
      if (date.slice(5, 7) === "12") {
        carValue = (carValue * 85n) / 100n;
        ledger.entries.push(valuationEntry(car, date, "Estimated value", carValue));
      }
    }
  }
  return ledger;
}

/** One purchase of an exponentially distributed size around `meanCents` (many small, a few large); returns its signed cents. */
function purchase(random: RandomSource, plan: SeedPlan, date: string, account: SeedAccount, meanCents: number, ledger: SeedLedger): bigint {
  const merchant = random.pick(plan.merchants);
  const cents = BigInt(Math.max(1, Math.round(-Math.log(1 - random.next()) * meanCents)));
  const refund = random.next() < 0.02;
  const signed = refund ? -cents : cents;
  const entry = transactionEntry(account, date, refund ? `${merchant.name} refund` : merchant.name, signed, {
    merchant_id: merchant.id,
    category_id: plan.expenseCategories[merchant.category] ?? null,
  });
  ledger.entries.push(entry);
  if (plan.tagIds.length > 0 && random.next() < 0.08) ledger.entry_tags.push({ entry_id: entry.id, tag_id: random.pick(plan.tagIds) });
  return signed;
}
