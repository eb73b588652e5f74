import type { AccountType } from "@hearth/contracts";

/** Sure: paying a credit card is a liability payment, paying a loan a loan payment, anything else a transfer. */
export function transferTypeOf(destination: AccountType): "transfer" | "liability_payment" | "loan_payment" {
  if (destination === "credit_card") return "liability_payment";
  if (destination === "loan") return "loan_payment";
  return "transfer";
}

/** The kind the outflow side takes (the inflow side is always a funds movement). */
export function outflowKindOf(destination: AccountType): "funds_movement" | "cc_payment" | "loan_payment" {
  if (destination === "credit_card") return "cc_payment";
  if (destination === "loan") return "loan_payment";
  return "funds_movement";
}
