import { Prisma } from "../generated/prisma/client";
import { accountRows } from "./accounts-csv-sql";
import { accountableTypeSql, amountSql, col, objectField, timestampFields, token, tokenCol } from "./export-format-sql";
import { exportedAccount } from "./export-rows-sql";
import type { ExportScope } from "./export-scope";
import { recordSection } from "./sure-record";

/** An amount in the row's currency: `cents` a column, or a sum of them ("end_cash + r.end_non_cash"). */
const money = (cents: string) => amountSql(col(cents), col("currency"));

/**
 * Account records: Sure's account.as_json(include: accountable) for the columns Hearth has, in
 * Sure's column order; the accountable carries the subtype (what Sure's importer reads of it).
 */
export const accountRecords = recordSection("Account", accountRows, {
  id: tokenCol("id"),
  subtype: col("subtype"),
  family_id: tokenCol("family_id"),
  name: col("name"),
  ...timestampFields(),
  accountable_type: accountableTypeSql(col("account_type")),
  balance: token(money("balance_cents")),
  currency: col("currency"),
  classification: tokenCol("classification"),
  cash_balance: token(money("cash_balance_cents")),
  status: tokenCol("status"),
  institution_name: col("institution_name"),
  institution_domain: col("institution_domain"),
  notes: col("notes"),
  accountable: objectField({ subtype: col("subtype") }),
});

const balanceRows = (scope: ExportScope) => Prisma.sql`
  SELECT b.date::text AS date, b.id::text AS id, b.account_id::text AS account_id, b.currency, b.flows_factor,
         b.start_cash_balance_cents AS start_cash, b.start_non_cash_balance_cents AS start_non_cash,
         b.cash_inflows_cents AS cash_inflows, b.cash_outflows_cents AS cash_outflows,
         b.non_cash_inflows_cents AS non_cash_inflows, b.non_cash_outflows_cents AS non_cash_outflows,
         b.net_market_flows_cents AS net_market_flows, b.cash_adjustments_cents AS cash_adjustments,
         b.non_cash_adjustments_cents AS non_cash_adjustments,
         b.end_cash_balance_cents AS end_cash, b.end_non_cash_balance_cents AS end_non_cash, b.created_at, b.updated_at
    FROM balances b
    JOIN accounts a ON a.id = b.account_id
   WHERE b.family_id = ${scope.familyId}::uuid AND ${exportedAccount("a", scope.familyId)}
   ORDER BY b.date, b.id`;

/**
 * Balance records, chronologically as Sure writes them (by date and id, the (family, date)
 * index). Sure's balance is the day's end balance and its cash_balance the end cash balance.
 */
export const balanceRecords = recordSection("Balance", balanceRows, {
  id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  date: tokenCol("date"),
  balance: token(money("end_cash + r.end_non_cash")),
  currency: col("currency"),
  cash_balance: token(money("end_cash")),
  start_cash_balance: token(money("start_cash")),
  start_non_cash_balance: token(money("start_non_cash")),
  cash_inflows: token(money("cash_inflows")),
  cash_outflows: token(money("cash_outflows")),
  non_cash_inflows: token(money("non_cash_inflows")),
  non_cash_outflows: token(money("non_cash_outflows")),
  net_market_flows: token(money("net_market_flows")),
  cash_adjustments: token(money("cash_adjustments")),
  non_cash_adjustments: token(money("non_cash_adjustments")),
  flows_factor: col("flows_factor"),
  start_balance: token(money("start_cash + r.start_non_cash")),
  end_cash_balance: token(money("end_cash")),
  end_non_cash_balance: token(money("end_non_cash")),
  end_balance: token(money("end_cash + r.end_non_cash")),
  ...timestampFields(),
});
