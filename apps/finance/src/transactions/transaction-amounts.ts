import { AppError, type BodyOf } from "@hearth/contracts";
import { centsIn } from "../ledger/money";

type Nature = NonNullable<BodyOf<"transactions.create">["transaction"]["nature"]>;

/** Sure's sign rule: with a nature, income/inflow are negative and expense/outflow positive; without one the amount is taken as signed. */
export function signedCents(cents: bigint, nature: Nature | undefined): bigint {
  if (nature === undefined) return cents;
  const size = cents < 0n ? -cents : cents;
  return nature === "income" || nature === "inflow" ? -size : size;
}

/**
 * A changed transaction's currency and amount (undefined: the amount stays). Minor units mean
 * different things in another currency, so a new currency must come with its amount. A nature
 * only signs an amount sent with it: alone it changes nothing, as in Sure's transactions
 * controller (calculate_signed_amount runs only when an amount is present).
 */
export function amountChangeOf(
  current: { currency: string; amountCents: bigint },
  changes: Pick<BodyOf<"transactions.update">["transaction"], "amount" | "currency" | "nature">,
): { currency: string; amountCents: bigint | undefined } {
  const currency = changes.currency ?? current.currency;
  if (changes.currency !== undefined && changes.currency !== current.currency && changes.amount === undefined) {
    throw AppError.validation(["Give the amount with a new currency"]);
  }
  const amountCents = changes.amount !== undefined ? signedCents(centsIn(changes.amount, currency), changes.nature) : undefined;
  return { currency, amountCents };
}
