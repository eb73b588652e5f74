import { z } from "zod";
import { centsIn, DecimalTextSchema, OptionalDecimalTextSchema, optionalCentsIn } from "./amounts";
import { HEARTH_ACCOUNT_TYPES, SURE_ACCOUNTABLE_TYPES } from "./accountables";
import {
  booleanSchema,
  enumOrFallback,
  ImportDateSchema,
  nameSchema,
  OptionalCurrencySchema,
  OptionalImportDateSchema,
  optionalNameSchema,
  OptionalSourceIdSchema,
  optionalTextSchema,
  presence,
  SourceIdSchema,
} from "./field-schemas";
import { currencyOf, type ReadContext } from "./read-context";
import type { SureAccountValues, SureBalanceValues } from "./record-values";

/** Hearth's limits for what an account holds (its API refuses longer). */
const LIMITS = { name: 200, subtype: 100, institution: 200, notes: 10_000 } as const;

const AccountableSchema = z
  .object({ subtype: optionalNameSchema(LIMITS.subtype) }, { message: "must be an object" })
  .nullish()
  .transform((accountable) => accountable ?? { subtype: null });

/**
 * An Account record as Family::DataImporter#import_accounts reads it. Sure keeps the balance it
 * computed with four decimals, so it is rounded to the currency (see AmountPrecision).
 */
export function accountSchema(context: ReadContext) {
  return z
    .object({
      id: SourceIdSchema,
      name: nameSchema(LIMITS.name),
      accountable_type: z.enum(SURE_ACCOUNTABLE_TYPES, { message: `must be one of: ${SURE_ACCOUNTABLE_TYPES.join(", ")}` }),
      accountable: AccountableSchema,
      subtype: optionalNameSchema(LIMITS.subtype),
      balance: DecimalTextSchema,
      cash_balance: OptionalDecimalTextSchema,
      currency: OptionalCurrencySchema,
      institution_name: optionalNameSchema(LIMITS.institution),
      institution_domain: optionalNameSchema(LIMITS.institution),
      notes: optionalTextSchema(LIMITS.notes),
      status: enumOrFallback(["active", "disabled", "draft"], "active"),
      skip_opening_balance_import: booleanSchema(false),
      authoritative_balance_history: booleanSchema(false),
      opening_balance_date: OptionalImportDateSchema,
      opening_balance_on: OptionalImportDateSchema,
    })
    .transform((data, ctx): Omit<SureAccountValues, "line"> => {
      const currency = data.currency ?? context.defaultCurrency;
      const balance = centsIn(data.balance, currency, "rounded", ctx, ["balance"]);
      const cashBalance = data.cash_balance === null ? balance : centsIn(data.cash_balance, currency, "rounded", ctx, ["cash_balance"]);
      if (balance === null || cashBalance === null) return z.NEVER;
      return {
        source_id: data.id,
        name: data.name,
        accountable_type: data.accountable_type,
        account_type: HEARTH_ACCOUNT_TYPES[data.accountable_type],
        subtype: data.accountable.subtype ?? data.subtype,
        balance_cents: balance,
        cash_balance_cents: cashBalance,
        currency,
        institution_name: data.institution_name,
        institution_domain: data.institution_domain,
        notes: data.notes,
        status: data.status,
        skip_opening_balance: data.skip_opening_balance_import || data.authoritative_balance_history,
        opening_balance_date: data.opening_balance_date ?? data.opening_balance_on,
      };
    });
}

/** Sure's balance_flows_factor_for: -1 stays -1, anything else present is 1. */
const FlowsFactorSchema = z
  .unknown()
  .optional()
  .transform((value): -1 | 1 | null => {
    const present = presence(value);
    if (present === undefined) return null;
    return typeof present === "string" && /^-1(?:\.0{1,20})?$/.test(present.trim()) ? -1 : 1;
  });

/** The optional figures of a Balance record, in Sure's column names. */
const BALANCE_FIGURES = [
  "cash_balance",
  "start_cash_balance",
  "start_non_cash_balance",
  "cash_inflows",
  "cash_outflows",
  "non_cash_inflows",
  "non_cash_outflows",
  "net_market_flows",
  "cash_adjustments",
  "non_cash_adjustments",
] as const;
type BalanceFigure = (typeof BALANCE_FIGURES)[number];

const figureFields = Object.fromEntries(BALANCE_FIGURES.map((figure) => [figure, OptionalDecimalTextSchema])) as Record<
  BalanceFigure,
  typeof OptionalDecimalTextSchema
>;

/** A Balance record (a day of an account's balance history) as import_balances reads it; its figures are Sure's computations, rounded. */
export function balanceSchema(context: ReadContext) {
  return z
    .object({
      id: OptionalSourceIdSchema,
      account_id: SourceIdSchema,
      date: ImportDateSchema,
      balance: DecimalTextSchema,
      currency: OptionalCurrencySchema,
      flows_factor: FlowsFactorSchema,
      ...figureFields,
    })
    .transform((data, ctx): Omit<SureBalanceValues, "line"> => {
      const currency = currencyOf(context, data.currency, data.account_id);
      const balance = centsIn(data.balance, currency, "rounded", ctx, ["balance"]);
      const figures = Object.fromEntries(
        BALANCE_FIGURES.map((figure) => [`${figure}_cents`, optionalCentsIn(data[figure], currency, "rounded", ctx, [figure])]),
      ) as Record<`${BalanceFigure}_cents`, bigint | null>;
      if (balance === null || BALANCE_FIGURES.some((figure) => data[figure] !== null && figures[`${figure}_cents`] === null)) return z.NEVER;
      return {
        source_id: data.id,
        account_id: data.account_id,
        date: data.date,
        currency,
        balance_cents: balance,
        ...figures,
        flows_factor: data.flows_factor,
      };
    });
}
