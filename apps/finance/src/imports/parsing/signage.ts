import type { ImportConfig, ImportSignageConvention } from "@hearth/contracts";

const isConvention = (value: string | null): value is ImportSignageConvention => value === "inflows_positive" || value === "inflows_negative";

/**
 * Sure's Import::Row#apply_transaction_signage_convention. Sure stores money out as positive,
 * so a file whose inflows are positive has every amount negated. With custom_column, the
 * entity-type column says which rows are inflows: a row whose value equals the inflow value
 * (or amount_type_identifier_value, which only Sure's web form sets) is one, signed per the
 * convention, every other row the other way. As in Sure, amount_type_inflow_value may itself
 * name the convention ("inflows_positive"), and with neither, inflows are positive.
 */
export function signedTransactionAmount(amount: bigint, entityType: string, config: ImportConfig & { amount_type_identifier_value?: string | null }): bigint {
  // Money in is positive in a debit_credit_columns row's amount (debit-credit.ts).
  if (config.amount_type_strategy === "debit_credit_columns") return -amount;
  if (config.amount_type_strategy === "signed_amount") {
    return config.signage_convention === "inflows_positive" ? -amount : amount;
  }
  const inflowValue = config.amount_type_inflow_value;
  const identifier = config.amount_type_identifier_value?.trim() ? config.amount_type_identifier_value : inflowValue;
  const treatment: ImportSignageConvention = isConvention(inflowValue)
    ? inflowValue
    : isConvention(config.signage_convention)
      ? config.signage_convention
      : "inflows_positive";
  const inflowSign = treatment === "inflows_positive" ? -1n : 1n;
  return entityType === identifier ? amount * inflowSign : amount * -inflowSign;
}

/** Sure's apply_trade_signage_convention: a positive quantity is shares coming in (a buy) when inflows are positive. */
export function signedTradeQty(qty: string, config: ImportConfig): string {
  if (config.signage_convention === "inflows_positive") return qty;
  if (qty.startsWith("-")) return qty.slice(1);
  return /[1-9]/.test(qty) ? `-${qty}` : qty;
}
