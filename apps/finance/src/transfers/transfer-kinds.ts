import type { AccountType } from "@hearth/contracts";
import { classificationOf } from "../balances/balance-calculator";

export type OutflowKind = "funds_movement" | "cc_payment" | "loan_payment" | "investment_contribution";

const isInvestment = (type: AccountType) => type === "investment" || type === "crypto";
const isLiability = (type: AccountType) => classificationOf(type) === "liability";

/**
 * The kind a matched outflow takes, from its destination (Sure's Transfer.kind_for_account): a
 * loan payment, a credit card or other liability payment (cc_payment), a contribution to an
 * investment or crypto account, otherwise a movement of funds.
 */
export function matchedOutflowKindOf(destination: AccountType): OutflowKind {
  if (destination === "loan") return "loan_payment";
  if (isLiability(destination)) return "cc_payment";
  if (isInvestment(destination)) return "investment_contribution";
  return "funds_movement";
}

/** The kind of a recorded transfer's outflow (Sure's Transfer::Creator): between two investment accounts it is a movement, not a contribution. */
export function createdOutflowKindOf(source: AccountType, destination: AccountType): OutflowKind {
  const kind = matchedOutflowKindOf(destination);
  return kind === "investment_contribution" && isInvestment(source) ? "funds_movement" : kind;
}

/** Sure's Transfer#transfer_type, read off the outflow's kind. */
export function transferTypeOf(outflowKind: string | null): "transfer" | "liability_payment" | "loan_payment" {
  if (outflowKind === "loan_payment") return "loan_payment";
  if (outflowKind === "cc_payment") return "liability_payment";
  return "transfer";
}

/** Sure names a transfer into a liability a payment. */
export function transferNamePrefixOf(destination: AccountType): "Payment" | "Transfer" {
  return isLiability(destination) ? "Payment" : "Transfer";
}
